// A two-client round-robin arbiter with a served-request counter and a slot timer.
// Observable: the grants, a saturating count of served requests, and `tick`, which pulses
// in the last cycle of every six-cycle slot.
module arbiter(input clk, input rst, input req0, input req1,
               output reg gnt0, output reg gnt1, output reg [2:0] served,
               output reg tick);
  reg last;        // the client granted last (0 or 1)
  reg [2:0] phase; // position in the slot, 0..5
  initial begin
    gnt0 = 0; gnt1 = 0; served = 0; last = 1; phase = 0; tick = 0;
  end
  always @(posedge clk) begin
    if (rst) begin
      gnt0 <= 0; gnt1 <= 0; served <= 0; last <= 1; phase <= 0; tick <= 0;
    end else begin
      gnt0 <= 0; gnt1 <= 0;
      if (req0 && (!req1 || last == 1)) begin
        gnt0 <= 1; last <= 0;
      end else if (req1) begin
        gnt1 <= 1; last <= 1;
      end
      if ((req0 || req1) && served < 3'd7)
        served <= served + 3'd1;
      if (phase >= 3'd5)
        phase <= 0;
      else
        phase <= phase + 3'd1;
      tick <= (phase == 3'd4);
    end
  end
endmodule
