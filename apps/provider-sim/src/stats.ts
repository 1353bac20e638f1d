/** Request counts per route name, for `GET /__sim/stats`. */
export class Stats {
  private readonly counts = new Map<string, number>();
  private total = 0;

  record(route: string): void {
    this.total++;
    this.counts.set(route, (this.counts.get(route) ?? 0) + 1);
  }

  reset(): void {
    this.counts.clear();
    this.total = 0;
  }

  /** `{ total, routes: { "POST /openai/v1/chat/completions": 12, … } }` */
  snapshot(): { total: number; routes: Record<string, number> } {
    return { total: this.total, routes: Object.fromEntries(this.counts) };
  }
}
