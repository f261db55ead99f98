import { Injectable, Logger } from '@nestjs/common';
import type { CobRejectionReport } from '@forge-httpd/cob';

/** Why changes were dropped, as counted. */
export type RejectionClass = 'unknown-action' | 'invalid-signature' | 'rejected';

/** Dropped-change counters of one COB type and class. */
export interface RejectionCount {
  readonly typeName: string;
  readonly reason: RejectionClass;
  /** Rejected changes plus their descendants. */
  readonly changes: number;
  /** Objects that lost at least one change this way (each counted once). */
  readonly objects: number;
}

/**
 * Makes dropped collaborative-object changes visible: an action type this reader does not
 * know, a bad signature or an action the node would refuse prunes the change and everything
 * after it (as heartwood does), so a page may show less than a newer node. Each object is
 * logged once (type, object id, repository, the change and why) and every drop is counted
 * for the metrics.
 */
@Injectable()
export class CobRejectionLog {
  private readonly logger = new Logger('cob');
  private readonly logged = new Set<string>();
  private readonly counts = new Map<string, { changes: number; objects: Set<string> }>();

  /** Records one report (the listener of every `CobStore`). */
  record(report: CobRejectionReport): void {
    const reason = classify(report);
    const objectKey = `${report.rid} ${report.typeName} ${report.object}`;
    const countKey = `${report.typeName} ${reason}`;
    const count = this.counts.get(countKey) ?? { changes: 0, objects: new Set<string>() };
    count.changes += report.dropped;
    count.objects.add(objectKey);
    this.counts.set(countKey, count);
    if (this.logged.has(objectKey)) return;
    this.logged.add(objectKey);
    this.logger.warn(describe(report));
  }

  /** Counters so far, by type and class. */
  snapshot(): RejectionCount[] {
    return [...this.counts.entries()].map(([key, count]) => {
      const [typeName = '', reason] = key.split(' ');
      return { typeName, reason: reason as RejectionClass, changes: count.changes, objects: count.objects.size };
    });
  }
}

function classify(report: CobRejectionReport): RejectionClass {
  if (report.unknownAction !== null) return 'unknown-action';
  return report.reason === 'invalid signature' ? 'invalid-signature' : 'rejected';
}

function describe(report: CobRejectionReport): string {
  const what = report.root ? 'the whole object (its root change)' : `${report.dropped} change(s) from ${report.change} on`;
  // Stored text is quoted as JSON so a hostile action type cannot forge log lines.
  return `dropped ${what}: ${report.typeName} ${report.object} in ${report.rid}: ${JSON.stringify(report.reason)}`;
}
