/**
 * Asks for a topic's end offsets on behalf of many callers at once, without
 * ever answering a caller with ends asked before it came: a caller joins the
 * next round, which starts when the one in flight is over. Under load, one
 * request to the brokers is in flight at a time, whatever the call rate.
 */
export class EndOffsetRounds {
  private queued: Array<{ resolve: (ends: Map<number, bigint>) => void; reject: (err: unknown) => void }> = [];
  private running = false;

  constructor(private readonly fetchEnds: () => Promise<Map<number, bigint>>) {}

  next(): Promise<Map<number, bigint>> {
    const answer = new Promise<Map<number, bigint>>((resolve, reject) => this.queued.push({ resolve, reject }));
    void this.pump();
    return answer;
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queued.length > 0) {
        const round = this.queued;
        this.queued = [];
        try {
          const ends = await this.fetchEnds();
          for (const caller of round) caller.resolve(ends);
        } catch (err) {
          for (const caller of round) caller.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
