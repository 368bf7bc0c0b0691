// A traffic-light controller for a main road crossed by a side road with a car sensor.
// The main road stays green until a car waits on the side road and the main green has lasted
// at least MIN_GREEN cycles; then main turns yellow (YELLOW cycles), the side road gets green
// for SIDE_GREEN cycles (or less if no car waits any more after MIN_GREEN), then yellow, and
// main is green again. A pedestrian request `walk` is served with the side road's green.
//   Inputs:  rst (synchronous reset), car (a car waits on the side road), walk (pedestrian
//            button, remembered until served).
//   Outputs: main_light, side_light (2'd0 red, 2'd1 yellow, 2'd2 green), walk_on.
// All registers start at 0, so yosys's zero-initialised miters agree.
module traffic_light(input clk, input rst, input car, input walk,
                     output reg [1:0] main_light, output reg [1:0] side_light,
                     output walk_on);
  localparam RED = 2'd0, YELLOW = 2'd1, GREEN = 2'd2;
  localparam MAIN_GO = 2'd0, MAIN_STOP = 2'd1, SIDE_GO = 2'd2, SIDE_STOP = 2'd3;
  localparam MIN_GREEN = 3'd3, YELLOW_T = 3'd1, SIDE_GREEN = 3'd5;
  reg [1:0] phase;
  reg [2:0] timer;   // cycles spent in the current phase, saturating at 7
  reg pending;       // a pedestrian request not served yet
  initial begin
    phase = MAIN_GO; timer = 3'd0; pending = 1'b0;
  end
  assign walk_on = phase == SIDE_GO;
  always @(*) begin
    case (phase)
      MAIN_GO:   begin main_light = GREEN;  side_light = RED;    end
      MAIN_STOP: begin main_light = YELLOW; side_light = RED;    end
      SIDE_GO:   begin main_light = RED;    side_light = GREEN;  end
      default:   begin main_light = RED;    side_light = YELLOW; end
    endcase
  end
  always @(posedge clk) begin
    if (rst) begin
      phase <= MAIN_GO; timer <= 3'd0; pending <= 1'b0;
    end else begin
      if (walk && phase != SIDE_GO) pending <= 1'b1;
      else if (phase == SIDE_GO) pending <= 1'b0;
      if (timer != 3'd7) timer <= timer + 3'd1;
      case (phase)
        MAIN_GO:
          if ((car || pending) && timer >= MIN_GREEN) begin
            phase <= MAIN_STOP; timer <= 3'd0;
          end
        MAIN_STOP:
          if (timer >= YELLOW_T) begin
            phase <= SIDE_GO; timer <= 3'd0;
          end
        SIDE_GO:
          if (timer >= SIDE_GREEN || (!car && timer >= MIN_GREEN)) begin
            phase <= SIDE_STOP; timer <= 3'd0;
          end
        default:
          if (timer >= YELLOW_T) begin
            phase <= MAIN_GO; timer <= 3'd0;
          end
      endcase
    end
  end
endmodule
