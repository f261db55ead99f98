import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { type Did, InvalidInputError, type Nid, parseDid, parseNid, parseRid, type Rid } from '@forge-httpd/identity';
import { isCobTypeName } from '@forge-httpd/cob';
import { type Oid, parseOid } from '@forge-httpd/storage';

/**
 * Path-parameter pipes: each turns the text into its branded id through the one `parse*`
 * function of its library, or throws a 400 error naming the route parameter.
 */

function rename(metadata: ArgumentMetadata, expected: string, parse: () => string): string {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new InvalidInputError(`Invalid ${metadata.data ?? 'parameter'}: expected ${expected}`);
  }
}

/** `{sha}`, `{base}`, `{oid}`, `{id}`: 40 hex characters in any case → lower-case Oid. */
@Injectable()
export class OidPipe implements PipeTransform<string, Oid> {
  transform(value: string, metadata: ArgumentMetadata): Oid {
    return parseOid(value, metadata.data ?? 'oid');
  }
}

/** `{nid}`, `{peer}`: a node id `z6Mk…`. */
@Injectable()
export class NidPipe implements PipeTransform<string, Nid> {
  transform(value: string, metadata: ArgumentMetadata): Nid {
    return rename(metadata, 'z6Mk… (a node id)', () => parseNid(value)) as Nid;
  }
}

/** `{did}`: `did:key:z6Mk…`. */
@Injectable()
export class DidPipe implements PipeTransform<string, Did> {
  transform(value: string, metadata: ArgumentMetadata): Did {
    return rename(metadata, 'did:key:z6Mk…', () => parseDid(value)) as Did;
  }
}

/** `{rid}` where the repository is not opened (policies): `rad:z…` or `z…`, 20 bytes. */
@Injectable()
export class RidPipe implements PipeTransform<string, Rid> {
  transform(value: string, metadata: ArgumentMetadata): Rid {
    return rename(metadata, 'rad:z… (base58 of 20 bytes)', () => parseRid(value)) as Rid;
  }
}

/** `{typeName}`: a COB type name (a reverse domain name), never a path. */
@Injectable()
export class CobTypeNamePipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isCobTypeName(value)) throw new InvalidInputError(`Invalid ${metadata.data ?? 'typeName'}: expected a reverse domain name such as xyz.radicle.issue`);
    return value;
  }
}
