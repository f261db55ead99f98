/**
 * The parts of an identity document (docs/node-home.md §4.1) that COB evaluation needs:
 * delegates and threshold for authorisation and merges, the project's default branch for
 * merges, and a canonical form to tell whether a revision changes anything.
 */
import { canonicalJson, type Did, InvalidDataError, type Nid, nidFromDid, RejectedError } from '@forge-httpd/identity';
import { type IdentityDocument, parseIdentityDocument } from '@forge-httpd/storage';
import type { JsonObject } from './json-fields.js';

/** A parsed identity document. */
export interface IdentityDoc {
  readonly delegates: readonly Did[];
  readonly delegateNids: ReadonlySet<Nid>;
  readonly threshold: number;
  readonly payload: JsonObject;
  /** Canonical JSON of the document's meaningful fields, for equality checks. */
  readonly canonical: string;
}

/**
 * Parses identity-document bytes (storage's parser, §4.1) into the view evaluation needs.
 * @param bytes - the `embeds/radicle.json` blob
 * @returns the document
 * @throws RejectedError when the document is invalid (the change using it is rejected)
 */
export function parseIdentityDoc(bytes: Uint8Array): IdentityDoc {
  let parsed: IdentityDocument;
  try {
    parsed = parseIdentityDocument(Buffer.from(bytes));
  } catch (error) {
    if (error instanceof InvalidDataError && error.what === 'identity document') throw new RejectedError(error.message);
    throw error;
  }
  const { payloads, delegates, threshold, visibility } = parsed;
  return {
    delegates,
    delegateNids: new Set(delegates.map((did) => nidFromDid(did))),
    threshold,
    payload: payloads,
    canonical: canonicalJson({ payload: payloads, delegates, threshold, visibility }),
  };
}

/**
 * Returns the default branch of the project payload, as `identity.project()` does for merges.
 * @param doc - the document
 * @param projectPayloadId - `xyz.<flavour>.project`
 * @throws RejectedError when the payload is missing or has no valid default branch
 */
export function projectDefaultBranch(doc: IdentityDoc, projectPayloadId: string): string {
  const project = doc.payload[projectPayloadId];
  const branch = typeof project === 'object' && project !== null ? (project as JsonObject)['defaultBranch'] : undefined;
  if (typeof branch !== 'string' || branch === '') throw new RejectedError('project payload missing');
  return branch;
}

/** Whether a node is a delegate of the document. */
export function isDelegate(doc: IdentityDoc, nid: Nid): boolean {
  return doc.delegateNids.has(nid);
}

/** The delegate majority used for identity adoption: ⌊n/2⌋ + 1. */
export function delegateMajority(doc: IdentityDoc): number {
  return Math.floor(doc.delegates.length / 2) + 1;
}
