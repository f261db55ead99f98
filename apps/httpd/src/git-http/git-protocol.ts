/**
 * The protocol version a smart HTTP client asks for in its `Git-Protocol` header
 * (gitprotocol-v2(5): colon-separated `key=value` parameters, `version=2`). The header never
 * reaches git as it is: only the version number does, and anything else means version 0.
 */
export function parseGitProtocolVersion(header: string | string[] | undefined): 0 | 1 | 2 {
  const text = Array.isArray(header) ? header.join(':') : (header ?? '');
  let version: 0 | 1 | 2 = 0;
  for (const parameter of text.split(':')) {
    const value = parameter.trim();
    if (value === 'version=2') version = 2;
    else if (value === 'version=1' && version === 0) version = 1;
  }
  return version;
}
