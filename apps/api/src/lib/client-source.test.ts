import { describe, expect, it } from 'vitest';
import { clientSource } from './client-source';

describe('clientSource', () => {
  it('keeps an IPv4 address as it is, also when it comes IPv4-mapped', () => {
    expect(clientSource('203.0.113.9')).toBe('203.0.113.9');
    expect(clientSource('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientSource('::FFFF:10.0.0.1')).toBe('10.0.0.1');
  });

  it('counts an IPv6 address by its /64 network, however it is written', () => {
    const network = '2001:db8:aa:1::/64';
    for (const ip of [
      '2001:db8:aa:1::1',
      '2001:0db8:00aa:0001:0000:0000:0000:0001',
      '2001:DB8:AA:1:ffff:ffff:ffff:fffe',
      '2001:db8:aa:1::1%eth0',
      '2001:db8:aa:1::192.0.2.1',
    ]) {
      expect(clientSource(ip), ip).toBe(network);
    }
    expect(clientSource('2001:db8:aa:2::1')).toBe('2001:db8:aa:2::/64');
    expect(clientSource('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientSource('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves anything that is not an IP address alone', () => {
    expect(clientSource('unknown')).toBe('unknown');
    expect(clientSource('')).toBe('');
  });
});
