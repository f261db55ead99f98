import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  InvalidInputError,
  armorSshSignature,
  decodeMultibase,
  decodeOpenSshPrivateKey,
  encodeMultibase,
  encodeOpenSshPrivateKey,
  formatSshPublicKey,
  keyPairFromSeed,
  parseSshPublicKeyLine,
  parseSshSignatureArmor,
  publicKeyFromNid,
  readNodePublicKey,
  signBytes,
  sshFingerprint,
  verifySignature,
  writeKeyFiles,
} from '@forge-httpd/identity';

const alice = keyPairFromSeed(new Uint8Array(32).fill(0xff));
const ALICE_SSH = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHahWSBEpuT1ESZbynOmBNkLBSnR32Ar4woZqSV2YNH1';

function hasSshKeygen(): boolean {
  try {
    execFileSync('which', ['ssh-keygen'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('ssh public key forms', () => {
  it('formats the Appendix A key line and fingerprint of seed ff…ff', () => {
    expect(formatSshPublicKey(alice.publicKey)).toBe(ALICE_SSH);
    expect(sshFingerprint(alice.publicKey)).toBe('SHA256:UIedaL6Cxm6OUErh9GQUzzglSk7VpQlVTI1TAFB/HWA');
  });

  it('formats the §2.4 vector of z6MktWkM…', () => {
    const key = publicKeyFromNid('z6MktWkM9vcfysWFq1c2aaLjJ6j4PYYg93TLPswR4qtuoAeT');
    expect(formatSshPublicKey(key)).toBe('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINDoXIrhcnRjnLGUXUFdxhkuy08lkTOwrj2IoGsEX6+Q');
    expect(sshFingerprint(key)).toBe('SHA256:gE/Ty4fuXzww49lcnNe9/GI0L7xSEQdFp/v9tOjFwB4');
  });

  it('parses a public key line with or without comment', () => {
    expect(Buffer.from(parseSshPublicKeyLine(`${ALICE_SSH} radicle\n`))).toEqual(Buffer.from(alice.publicKey));
    expect(Buffer.from(parseSshPublicKeyLine(ALICE_SSH))).toEqual(Buffer.from(alice.publicKey));
  });

  it.each([
    ['an rsa key', 'ssh-rsa AAAAB3NzaC1yc2E='],
    ['a missing key', 'ssh-ed25519'],
    ['garbage', 'hello'],
  ])('rejects %s line', (_label, line) => {
    expect(() => parseSshPublicKeyLine(line)).toThrow(InvalidInputError);
  });
});

describe('OpenSSH private key file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'forge-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses the deterministic checkint (zero for seed ff…ff) and 70-column lines', () => {
    const text = encodeOpenSshPrivateKey(alice);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('-----BEGIN OPENSSH PRIVATE KEY-----');
    expect(lines.at(-1)).toBe('-----END OPENSSH PRIVATE KEY-----');
    expect(text.endsWith('-----\n')).toBe(true);
    expect(lines.slice(1, -2).every((line) => line.length === 70)).toBe(true);
    const body = Buffer.from(lines.slice(1, -1).join(''), 'base64');
    const privateSection = body.subarray(body.length - 144);
    expect(privateSection.readUInt32BE(0)).toBe(0);
    expect(privateSection.readUInt32BE(4)).toBe(0);
    expect([...privateSection.subarray(-6)]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('round-trips through decodeOpenSshPrivateKey', () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
    const keyPair = keyPairFromSeed(seed);
    expect(decodeOpenSshPrivateKey(encodeOpenSshPrivateKey(keyPair)).nid).toBe(keyPair.nid);
  });

  it('writes key files that ssh-keygen -y accepts', async () => {
    await writeKeyFiles(dir, alice);
    const secret = path.join(dir, 'keys', 'radicle');
    expect((await stat(secret)).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(dir, 'keys', 'radicle.pub'), 'utf8')).toBe(`${ALICE_SSH} radicle\n`);
    expect(Buffer.from(await readNodePublicKey(dir))).toEqual(Buffer.from(alice.publicKey));
    if (hasSshKeygen()) {
      const derived = execFileSync('ssh-keygen', ['-y', '-f', secret], { encoding: 'utf8' });
      expect(derived.trim()).toBe(`${ALICE_SSH} radicle`);
    }
  });

  it('decodes a key file re-saved by ssh-keygen with random checkints', async () => {
    if (!hasSshKeygen()) return;
    const copy = path.join(dir, 'resaved');
    await writeFile(copy, encodeOpenSshPrivateKey(alice), { mode: 0o600 });
    execFileSync('ssh-keygen', ['-c', '-C', 'other', '-f', copy], { stdio: 'ignore' });
    expect(decodeOpenSshPrivateKey(await readFile(copy, 'utf8')).nid).toBe(alice.nid);
  });
});

describe('signatures', () => {
  const message = Buffer.from('d96f425412c9f8ad5d9a9a05c9831d0728e2338d', 'hex');

  it('signs deterministically and verifies', () => {
    const signature = signBytes(alice, message);
    expect(Buffer.from(signBytes(alice, message))).toEqual(Buffer.from(signature));
    expect(verifySignature(alice.publicKey, message, signature)).toBe(true);
    expect(verifySignature(alice.publicKey, Buffer.from('other'), signature)).toBe(false);
    expect(verifySignature(alice.publicKey, message, signature.subarray(1))).toBe(false);
  });

  it('round-trips a signature through multibase', () => {
    const signature = signBytes(alice, message);
    const text = encodeMultibase(signature);
    expect(text.startsWith('z')).toBe(true);
    expect(Buffer.from(decodeMultibase(text))).toEqual(Buffer.from(signature));
  });

  it('armors an SSHSIG blob that parses back, also with git header indentation', () => {
    const signature = signBytes(alice, message);
    const armor = armorSshSignature(alice.publicKey, signature);
    const lines = armor.split('\n');
    expect(lines[0]).toBe('-----BEGIN SSH SIGNATURE-----');
    expect(lines[1]?.startsWith('U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgdqFZIESm5PURJlvKc6YE2QsFKd')).toBe(true);
    expect(lines.at(-1)).toBe('-----END SSH SIGNATURE-----');
    const indented = lines.map((line, i) => (i === 0 ? line : ` ${line}`)).join('\n');
    for (const text of [armor, indented]) {
      const parsed = parseSshSignatureArmor(text);
      expect(Buffer.from(parsed.publicKey)).toEqual(Buffer.from(alice.publicKey));
      expect(Buffer.from(parsed.signature)).toEqual(Buffer.from(signature));
      expect(parsed.namespace).toBe('radicle');
    }
  });

  it('rejects a malformed armor', () => {
    expect(() => parseSshSignatureArmor('-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----')).toThrow(InvalidInputError);
  });
});
