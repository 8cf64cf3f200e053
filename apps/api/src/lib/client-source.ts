import { isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function groupsOf(address: string): string[] {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}

/**
 * Where an attempt comes from, for limits that count per client: an IPv4 address as it is, an
 * IPv6 address as its /64 network. One subscriber is handed a whole /64, so counting single IPv6
 * addresses would give one client a fresh budget with every address it picks from its own.
 */
export function clientSource(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip.split('%')[0]!)) return ip;
  return `${groupsOf(ip).slice(0, 4).join(':')}::/64`;
}
