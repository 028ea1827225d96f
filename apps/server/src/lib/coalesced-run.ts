/**
 * A background task run on demand: a trigger while a run is under way asks for one more run after it (any number of
 * triggers meanwhile make one), so runs never overlap and a burst of triggers costs at most two.
 */
export class CoalescedRun {
  private current: Promise<void> | undefined;
  private again = false;

  /** `allowed` is asked at each trigger, the one after a run included (a stopped worker runs no more). */
  constructor(
    private readonly run: () => Promise<void>,
    private readonly allowed: () => boolean,
    private readonly onError: (error: unknown) => void,
  ) {}

  get busy(): boolean {
    return this.current !== undefined;
  }

  trigger(): void {
    if (!this.allowed()) return;
    if (this.current) {
      this.again = true;
      return;
    }
    this.current = this.run()
      .catch(this.onError)
      .finally(() => {
        this.current = undefined;
        if (this.again) {
          this.again = false;
          this.trigger();
        }
      });
  }

  /** Resolves once no run is under way, the one asked for meanwhile included. */
  async settled(): Promise<void> {
    while (this.current) await this.current;
  }
}
