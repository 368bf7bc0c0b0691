// A UART transmitter, 8N1, one bit per BAUD = 2 clock cycles.
// On `start` while idle it latches `data` and sends a frame on `tx`: a start bit (0), the
// eight data bits LSB first and a stop bit (1); the line idles at 1. `busy` is high from the
// cycle after `start` until the stop bit has been sent; a `start` while busy is ignored.
// `done` pulses for one cycle when a frame is complete.
//   Inputs:  rst (synchronous reset), start, data[7:0].
//   Outputs: tx, busy, done.
// All registers start at 0 except the line register `tx_n` (inverted, so 0 means an idle line),
// so yosys's zero-initialised miters agree.
module uart_tx(input clk, input rst, input start, input [7:0] data,
               output tx, output busy, output reg done);
  reg [8:0] shift;   // the remaining bits of the frame, LSB next (start bit included)
  reg [3:0] count;   // bits still to send; 0 when idle
  reg baud;          // the half of the current bit period
  reg tx_n;          // the inverted line
  initial begin
    shift = 9'd0; count = 4'd0; baud = 1'b0; tx_n = 1'b0; done = 1'b0;
  end
  assign tx = !tx_n;
  assign busy = count != 4'd0;
  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      shift <= 9'd0; count <= 4'd0; baud <= 1'b0; tx_n <= 1'b0;
    end else if (count == 4'd0) begin
      tx_n <= 1'b0;
      if (start) begin
        shift <= {data, 1'b0};
        count <= 4'd10;
        baud <= 1'b0;
      end
    end else begin
      // the current bit is on the line for two cycles
      tx_n <= count == 4'd1 ? 1'b0 : !shift[0];
      baud <= !baud;
      if (baud) begin
        shift <= {1'b1, shift[8:1]};
        count <= count - 4'd1;
        if (count == 4'd1) done <= 1'b1;
      end
    end
  end
endmodule
