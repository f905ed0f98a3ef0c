import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasVisibleContent, mediaPrefixes, sanitizeRichText } from '../src/http/rich-text.ts';
import { LocalStore } from '../src/media/store.ts';

const MEDIA = '/media/banners/3f/3f9c0123456789abcdef.webp';
const clean = (html: string) => sanitizeRichText(html);

describe('what survives exactly', () => {
  it.each([
    ['headings', '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4>'],
    [
      'paragraphs and emphasis',
      '<p><strong>b</strong> <b>b</b> <em>i</em> <i>i</i> <u>u</u> <s>s</s></p>',
    ],
    ['lists', '<ul><li><p>one</p></li><li><p>two</p></li></ul><ol start="3"><li>three</li></ol>'],
    [
      'a blockquote and code',
      '<blockquote><p>quote</p></blockquote><pre><code class="language-ts">a &lt; b &amp;&amp; c</code></pre><p><code>x</code></p>',
    ],
    [
      'an https link as the editor writes it',
      '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/a?b=1&amp;c=2">link</a></p>',
    ],
    [
      'a mailto link',
      '<p><a target="_blank" rel="noopener noreferrer nofollow" href="mailto:hello@example.com">mail</a></p>',
    ],
    ['an image from this app’s media', `<p><img src="${MEDIA}" alt="A picture" /></p>`],
    ['line breaks and rules', '<p>a<br />b</p><hr />'],
    [
      'aligned text',
      '<p style="text-align:center">c</p><h2 style="text-align:right">r</h2><p style="text-align:justify">j</p>',
    ],
    ['highlight, sub and sup', '<p><mark>m</mark> H<sub>2</sub>O x<sup>2</sup></p>'],
    ['escaped markup in text', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ])('%s', (_name, html) => {
    expect(clean(html)).toBe(html);
  });

  it('is stable: sanitising twice changes nothing', () => {
    const html = '<p style="text-align: center">c<br>d</p><a href="https://x.example">x</a>';
    expect(clean(clean(html))).toBe(clean(html));
  });

  it('writes void elements as <br />, alignment without spaces, and always adds rel to links', () => {
    expect(clean('<p style="text-align: center">a<br>b</p><hr>')).toBe(
      '<p style="text-align:center">a<br />b</p><hr />',
    );
    expect(clean('<a href="https://example.com">x</a>')).toBe(
      '<a rel="noopener noreferrer nofollow" href="https://example.com">x</a>',
    );
  });
});

describe('what never survives', () => {
  it.each([
    ['a script', '<p>ok</p><script>alert(1)</script>', '<p>ok</p>'],
    ['a style element', '<style>body{display:none}</style><p>ok</p>', '<p>ok</p>'],
    ['an image with onerror', '<img src=x onerror=alert(1)>', ''],
    [
      'an event handler on an allowed image',
      `<img src="${MEDIA}" onerror="alert(1)" onload="alert(2)">`,
      `<img src="${MEDIA}" />`,
    ],
    [
      'an event handler on a paragraph',
      '<p onclick="alert(1)" onmouseover="alert(2)">x</p>',
      '<p>x</p>',
    ],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', 'x'],
    ['a JaVaScRiPt: link', '<a href="JaVaScRiPt:alert(1)">x</a>', 'x'],
    ['a javascript: link with an encoded tab', '<a href="java&#x09;script:alert(1)">x</a>', 'x'],
    ['a javascript: link with leading spaces', '<a href="  javascript:alert(1)">x</a>', 'x'],
    ['a data: link', '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', 'x'],
    ['a vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', 'x'],
    ['a relative link', '<a href="/api/v1/blogs/remove/1">x</a>', 'x'],
    ['a protocol-relative link', '<a href="//evil.example">x</a>', 'x'],
    [
      'a target other than _blank',
      '<a href="https://e.example" target="_top">x</a>',
      '<a rel="noopener noreferrer nofollow" href="https://e.example">x</a>',
    ],
    [
      'an SVG with onload',
      '<svg onload=alert(1)><circle r="1"/></svg><p>after</p>',
      '<p>after</p>',
    ],
    ['an SVG with a script', '<svg><script>alert(1)</script></svg>', ''],
    ['an iframe', '<iframe src="https://evil.example/x"></iframe><p>after</p>', '<p>after</p>'],
    ['an object and an embed', '<object data="x.swf"></object><embed src="x.swf">', ''],
    [
      'a style with a javascript: URL',
      '<p style="background:url(javascript:alert(1))">bg</p>',
      '<p>bg</p>',
    ],
    [
      'a style beside text-align',
      '<p style="text-align:left;position:fixed;top:0">x</p>',
      '<p style="text-align:left">x</p>',
    ],
    [
      'a text-align that is not an alignment',
      '<p style="text-align:expression(alert(1))">x</p>',
      '<p>x</p>',
    ],
    ['an image from another site', '<img src="https://evil.example/x.png">', ''],
    ['an image from a data: URL', '<img src="data:image/png;base64,iVBORw0KGgo=">', ''],
    ['an image escaping the media folder', '<img src="/media/../master-admin.sqlite">', ''],
    ['a protocol-relative image', '<img src="//evil.example/media/a/b.webp">', ''],
    [
      'an image with srcset',
      `<img src="${MEDIA}" srcset="https://evil.example/x.png 2x">`,
      `<img src="${MEDIA}" />`,
    ],
    [
      'a form',
      '<form action="https://evil.example"><input name="a"><button>Go</button></form>',
      'Go',
    ],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example">', ''],
    ['a base element', '<base href="https://evil.example/">', ''],
    ['a link element', '<link rel="stylesheet" href="https://evil.example/x.css">', ''],
    ['a comment', '<!-- <script>alert(1)</script> --><p>x</p>', '<p>x</p>'],
    ['classes and ids', '<p class="x" id="y">z</p>', '<p>z</p>'],
  ])('%s', (_name, html, expected) => {
    expect(clean(html)).toBe(expected);
  });

  it('keeps the text of tags outside the subset', () => {
    expect(clean('<div>one</div><span>two</span><table><tr><td>three</td></tr></table>')).toBe(
      'onetwothree',
    );
    expect(clean('<h5>five</h5><h6>six</h6>')).toBe('<h4>five</h4><h4>six</h4>');
  });
});

describe('media prefixes', () => {
  it('are the store’s URL without the key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-rich-text-'));
    try {
      expect(mediaPrefixes(new LocalStore(dir))).toEqual(['/media/']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(mediaPrefixes({ url: (key) => `https://cdn.example/bucket/${key}` })).toEqual([
      'https://cdn.example/bucket/',
    ]);
  });

  it('admit images from object storage when told, and no others', () => {
    const prefixes = ['https://cdn.example/bucket/'];
    const s3 = '<img src="https://cdn.example/bucket/blogs/ab/abcdef.webp" alt="a" />';
    expect(sanitizeRichText(s3, prefixes)).toBe(s3);
    expect(sanitizeRichText(`<img src="${MEDIA}">`, prefixes)).toBe('');
    expect(sanitizeRichText('<img src="https://cdn.example/bucketx/a/b.webp">', prefixes)).toBe('');
    expect(sanitizeRichText('<img src="https://cdn.example/bucket/a/b.webp?x=1">', prefixes)).toBe(
      '',
    );
  });
});

describe('hasVisibleContent', () => {
  it.each([
    ['', false],
    ['<p></p>', false],
    ['<p> &nbsp; </p><p><br /></p>', false],
    ['<p>\u00a0</p>', false],
    ['<p>x</p>', true],
    [`<p><img src="${MEDIA}" /></p>`, true],
    ['<hr />', true],
  ])('%j → %s', (html, visible) => {
    expect(hasVisibleContent(html)).toBe(visible);
  });
});
