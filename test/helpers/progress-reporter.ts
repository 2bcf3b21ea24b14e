import type { TestModule, TestSpecification } from 'vitest/node';
import { DefaultReporter } from 'vitest/reporters';

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Vitest's default reporter, with each finished file's line prefixed by the run's elapsed time and how
 * many files are done: `[3:41 27/88] ✓ test/integration/estates.test.ts (29 tests) 15221ms`. Lines are
 * printed as files finish, on a terminal as in a CI log (no redrawn summary window), and failures
 * are listed in full at the end as usual.
 */
export default class ProgressReporter extends DefaultReporter {
  private startedAt = Date.now();
  private total = 0;
  private done = 0;

  constructor() {
    super({ summary: false });
  }

  override onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.startedAt = Date.now();
    this.total = specifications.length;
    this.done = 0;
    super.onTestRunStart(specifications);
  }

  override onTestModuleEnd(module: TestModule): void {
    this.done++;
    super.onTestModuleEnd(module);
  }

  /** The module's line is the first the base class logs for it: that one gets the prefix. */
  protected override printTestModule(module: TestModule): void {
    const width = String(this.total).length;
    const progress = `[${clock(Date.now() - this.startedAt).padStart(5)} ${String(this.done).padStart(width)}/${this.total}]`;
    const log = this.log;
    let first = true;
    this.log = (...messages: unknown[]) => {
      if (first && messages.length > 0) {
        first = false;
        log.call(this, `${progress}${String(messages[0])}`, ...messages.slice(1));
      } else log.call(this, ...messages);
    };
    try {
      super.printTestModule(module);
    } finally {
      this.log = log;
    }
  }
}
