// The car alarm system (CAS) of "Mutation testing with hyperproperties" (Fellner et al.,
// docs/method.md §12), after the Ford CAS of the MoMuT papers: the deterministic
// version without time (every timer 0), the Verilog counterpart of models/smv/car_alarm.smv.
//   Inputs:  rst (synchronous reset), and the user's actions open, close, lock, unlock; in one
//            cycle unlock wins over open, open over close, close over lock. A cycle without
//            any action lets a timed transition fire (time elapses).
//   Outputs: armed, flash, sound.
// The car is closed and locked, then arms itself; opening an armed car raises the alarm (flash
// and sound); the sound stops first, then the flash, and the car waits open and silent until it
// is closed (re-armed) or unlocked. Unlocking ends the alarm at once.
// All registers start at 0 (OpenUnlocked), so yosys's zero-initialised miters agree.
module car_alarm(input clk, input rst, input open, input close, input lock, input unlock,
                 output armed, output flash, output sound);
  localparam OPEN_UNLOCKED = 3'd0, CLOSED_UNLOCKED = 3'd1, OPEN_LOCKED = 3'd2,
             CLOSED_LOCKED = 3'd3, ARMED = 3'd4, FLASH_SOUND = 3'd5, FLASH_ONLY = 3'd6,
             SILENT_OPEN = 3'd7;
  reg [2:0] st;
  wire idle = !open && !close && !lock && !unlock;
  initial st = OPEN_UNLOCKED;
  assign armed = st == ARMED;
  assign flash = st == FLASH_SOUND || st == FLASH_ONLY;
  assign sound = st == FLASH_SOUND;
  always @(posedge clk) begin
    if (rst)
      st <= OPEN_UNLOCKED;
    else
      case (st)
        OPEN_UNLOCKED:
          if (close) st <= CLOSED_UNLOCKED;
          else if (lock) st <= OPEN_LOCKED;
        CLOSED_UNLOCKED:
          if (open) st <= OPEN_UNLOCKED;
          else if (lock) st <= CLOSED_LOCKED;
        OPEN_LOCKED:
          if (unlock) st <= OPEN_UNLOCKED;
          else if (close) st <= CLOSED_LOCKED;
        CLOSED_LOCKED:
          if (unlock) st <= CLOSED_UNLOCKED;
          else if (open) st <= OPEN_LOCKED;
          else if (idle) st <= ARMED;
        ARMED:
          if (unlock) st <= CLOSED_UNLOCKED;
          else if (open) st <= FLASH_SOUND;
        FLASH_SOUND:
          if (unlock) st <= OPEN_UNLOCKED;
          else if (idle) st <= FLASH_ONLY;
        FLASH_ONLY:
          if (unlock) st <= OPEN_UNLOCKED;
          else if (idle) st <= SILENT_OPEN;
        default: // SILENT_OPEN
          if (unlock) st <= OPEN_UNLOCKED;
          else if (close) st <= ARMED;
      endcase
  end
endmodule
