import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { parseLogoDataUrl, sniffImageType, svgProblem } from './logo-image';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>';
const dataUrl = (type: string, bytes: Buffer | string) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

function failure(input: string): AppError {
  try {
    parseLogoDataUrl(input);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the upload to be refused');
}

describe('sniffImageType', () => {
  it('recognises each accepted format by its bytes', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(WEBP)).toBe('image/webp');
    expect(sniffImageType(Buffer.from(SVG))).toBe('image/svg+xml');
    expect(
      sniffImageType(
        Buffer.from(
          `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n${SVG}`,
        ),
      ),
    ).toBe('image/svg+xml');
  });

  it('recognises nothing else', () => {
    expect(sniffImageType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImageType(Buffer.from('<html><svg></svg></html>'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('svgProblem', () => {
  it('accepts a plain drawing, including styles and gradients', () => {
    expect(svgProblem(SVG)).toBeNull();
    expect(svgProblem('<svg><style>.a{fill:red}</style><defs><linearGradient id="g"/></defs><text>Our online shop</text></svg>')).toBeNull();
  });

  it.each([
    ['<svg><script>alert(1)</script></svg>', 'scripts'],
    ['<svg><SCRIPT src="x.js"/></svg>', 'scripts'],
    ['<svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>', 'scripts'],
    ['<svg onload="alert(1)"/>', 'event handlers (onload)'],
    ['<svg><rect\nONCLICK = "x()"/></svg>', 'event handlers (ONCLICK)'],
    ['<svg/onload=alert(1)>', 'event handlers (onload)'],
    ['<svg><a href="javascript:alert(1)"><rect/></a></svg>', 'script links'],
    ['<svg><a href="&#106;ava&#x73;cript:alert(1)"><rect/></a></svg>', 'script links'],
    ['<svg><a href="java\tscript:alert(1)"><rect/></a></svg>', 'script links'],
    ['<svg><foreignObject><div>hi</div></foreignObject></svg>', 'embedded HTML'],
    ['<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>', 'entity declarations'],
  ])('refuses %s', (svg, what) => {
    expect(svgProblem(svg)).toContain(what);
  });
});

describe('parseLogoDataUrl', () => {
  it('accepts each format, with its content type and bytes', () => {
    expect(parseLogoDataUrl(dataUrl('image/png', PNG))).toEqual({ contentType: 'image/png', bytes: PNG });
    expect(parseLogoDataUrl(dataUrl('image/jpg', JPEG)).contentType).toBe('image/jpeg');
    expect(parseLogoDataUrl(dataUrl('image/webp', WEBP)).contentType).toBe('image/webp');
    expect(parseLogoDataUrl(`data:image/svg+xml;charset=utf-8;base64,${Buffer.from(SVG).toString('base64')}`).contentType).toBe('image/svg+xml');
  });

  it('accepts exactly 512 KB and refuses one byte more with 413', () => {
    const limit = Buffer.concat([PNG, Buffer.alloc(512 * 1024 - PNG.length)]);
    expect(parseLogoDataUrl(dataUrl('image/png', limit)).bytes.length).toBe(512 * 1024);
    const error = failure(dataUrl('image/png', Buffer.concat([limit, Buffer.alloc(1)])));
    expect(error.statusCode).toBe(413);
    expect(error.fields).toEqual({ dataUrl: 'The logo is 513 KB; the largest accepted is 512 KB. Upload a smaller image.' });
  });

  it.each([
    ['data:image/gif;base64,R0lGODlhAQABAAAAACw=', 'This file type (image/gif) is not accepted.'],
    [`data:image/svg+xml,${encodeURIComponent(SVG)}`, 'Send the image base64-encoded'],
    ['data:image/png;base64,not*base64', 'The image data is not valid base64.'],
    ['data:image/png;base64,', 'The image is empty.'],
    [dataUrl('image/webp', PNG), 'This file is not a valid WebP image (it is a PNG).'],
    [dataUrl('image/svg+xml', PNG), 'This file is not a valid SVG image (it is a PNG).'],
    [
      dataUrl('image/svg+xml', Buffer.concat([Buffer.from('<svg>'), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from('</svg>')])),
      'The SVG file is not UTF-8 text.',
    ],
    [dataUrl('image/svg+xml', '<svg><script>x</script></svg>'), 'SVG files that contain scripts are not accepted'],
    ['https://example.com/logo.png', 'Send the logo as a data URL'],
  ])('refuses %s', (input, message) => {
    const error = failure(input);
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain(message);
    expect(error.fields?.dataUrl).toBe(error.message);
  });
});
