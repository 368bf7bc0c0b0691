// The car alarm system (CAS) of "Mutation testing with hyperproperties" (Fellner et al.,
// docs/method.md §12), after the Ford CAS of the MoMuT papers: the timed version
// with nondeterministic timing, the Verilog counterpart of models/smv/car_alarm_timed.smv
// (models/verilog/car_alarm.v is the version without time).
//   Inputs:  rst (synchronous reset), and the user's actions open, close, lock, unlock; in one
//            cycle unlock wins over open, open over close, close over lock.
//   Outputs: armed, flash, sound.
// The car arms itself ARM ticks after it was closed and locked. Opening an armed car raises the
// alarm (flash and sound); the sound stops after SOUND ticks, the flash SILENCE ticks later, and
// the car then waits open and silent until it is closed (re-armed) or unlocked.
// Time is nondeterministic (VIS `$ND`, docs/method.md §6.1): in a cycle without a user action
// the timer `t` of the current timed state advances by one tick or not (`tick`); the timed
// transition fires in a cycle without a user action once `t` has reached its delay. hypermut
// turns `$ND` into an input shared by model and mutant, so the tester controls time.
// Timers, scaled down from the paper's 20 / 30 / 270 (arming and sound by 10, the flash by 30)
// so that every kill lies at most ~22 steps deep (at full scale ~330, too slow for
// tests/models_decided.rs): ARM = 2, SOUND = 3, SILENCE = 9.
module car_alarm_timed(input clk, input rst, input open, input close, input lock, input unlock,
                       output armed, output flash, output sound);
  localparam OPEN_UNLOCKED = 3'd0, CLOSED_UNLOCKED = 3'd1, OPEN_LOCKED = 3'd2,
             CLOSED_LOCKED = 3'd3, ARMED = 3'd4, FLASH_SOUND = 3'd5, FLASH_ONLY = 3'd6,
             SILENT_OPEN = 3'd7;
  localparam ARM = 4'd2, SOUND = 4'd3, SILENCE = 4'd9;
  reg [2:0] st, nst;
  reg [3:0] t;
  wire idle = !open && !close && !lock && !unlock;
  wire tick = $ND(1'b0, 1'b1);
  initial begin
    st = OPEN_UNLOCKED; t = 4'd0;
  end
  assign armed = st == ARMED;
  assign flash = st == FLASH_SOUND || st == FLASH_ONLY;
  assign sound = st == FLASH_SOUND;
  always @(*) begin
    nst = st;
    case (st)
      OPEN_UNLOCKED:
        if (close) nst = CLOSED_UNLOCKED;
        else if (lock) nst = OPEN_LOCKED;
      CLOSED_UNLOCKED:
        if (open) nst = OPEN_UNLOCKED;
        else if (lock) nst = CLOSED_LOCKED;
      OPEN_LOCKED:
        if (unlock) nst = OPEN_UNLOCKED;
        else if (close) nst = CLOSED_LOCKED;
      CLOSED_LOCKED:
        if (unlock) nst = CLOSED_UNLOCKED;
        else if (open) nst = OPEN_LOCKED;
        else if (idle && t >= ARM) nst = ARMED;
      ARMED:
        if (unlock) nst = CLOSED_UNLOCKED;
        else if (open) nst = FLASH_SOUND;
      FLASH_SOUND:
        if (unlock) nst = OPEN_UNLOCKED;
        else if (idle && t >= SOUND) nst = FLASH_ONLY;
      FLASH_ONLY:
        if (unlock) nst = OPEN_UNLOCKED;
        else if (idle && t >= SILENCE) nst = SILENT_OPEN;
      default: // SILENT_OPEN
        if (unlock) nst = OPEN_UNLOCKED;
        else if (close) nst = ARMED;
    endcase
  end
  always @(posedge clk) begin
    if (rst) begin
      st <= OPEN_UNLOCKED; t <= 4'd0;
    end else begin
      st <= nst;
      if (nst != st) t <= 4'd0;
      else if (idle && tick && t < SILENCE) t <= t + 4'd1;
    end
  end
endmodule
