/**
 * Rich text (blog and page `desc`): the HTML the web app's editor (Mantine's tiptap) writes,
 * reduced on every write to a safe subset (API.md, Blogs): paragraphs, headings h1–h4, lists,
 * blockquotes, code, line breaks and rules, emphasis, links with http/https/mailto only, and
 * images from this app's own media. Scripts, styles, frames, SVG, forms, event handlers,
 * `javascript:`/`data:` URLs and foreign images never survive.
 */
import sanitizeHtml from 'sanitize-html';
import { assertKey, type MediaStore } from '../media/store.ts';

const ALIGN = [/^(left|right|center|justify)$/];
const ALIGNED = ['p', 'h1', 'h2', 'h3', 'h4'] as const;
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
/** rel every link carries, whatever the input said. */
const LINK_REL = 'noopener noreferrer nofollow';

/** The URL prefixes of this app's media: `store.url(key)` without the key. */
export function mediaPrefixes(store: Pick<MediaStore, 'url'>): string[] {
  return [store.url('x').slice(0, -1)];
}

/** An absolute http(s) or mailto URL (tabs and newlines in the scheme are seen through). */
function isAllowedHref(href: string | undefined): boolean {
  if (!href) return false;
  try {
    return LINK_PROTOCOLS.has(new URL(href.trim()).protocol);
  } catch {
    return false;
  }
}

/** A URL naming a stored media file: one of `prefixes` followed by a well-formed key. */
function isMediaUrl(src: string | undefined, prefixes: readonly string[]): boolean {
  if (!src) return false;
  for (const prefix of prefixes) {
    if (!src.startsWith(prefix)) continue;
    try {
      assertKey(src.slice(prefix.length));
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

function options(prefixes: readonly string[]): sanitizeHtml.IOptions {
  return {
    allowedTags: [
      'p',
      'h1',
      'h2',
      'h3',
      'h4',
      'ul',
      'ol',
      'li',
      'blockquote',
      'pre',
      'code',
      'br',
      'hr',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'mark',
      'sub',
      'sup',
      'a',
      'img',
    ],
    allowedAttributes: {
      a: ['href', 'target', 'rel'],
      img: ['src', 'alt', 'title'],
      ol: ['start'],
      code: ['class'],
      ...Object.fromEntries(ALIGNED.map((tag) => [tag, ['style']])),
    },
    allowedClasses: { code: [/^language-[a-z0-9+#-]{1,30}$/] },
    allowedStyles: Object.fromEntries(ALIGNED.map((tag) => [tag, { 'text-align': ALIGN }])),
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    allowedIframeHostnames: [],
    disallowedTagsMode: 'discard',
    // Tags whose content is code or markup, not text for the reader: dropped with it.
    nonTextTags: [
      'script',
      'style',
      'textarea',
      'option',
      'select',
      'noscript',
      'iframe',
      'frame',
      'frameset',
      'object',
      'embed',
      'template',
      'svg',
      'math',
      'title',
      'head',
    ],
    transformTags: {
      // Lower headings than the subset has become its smallest one rather than plain text.
      h5: 'h4',
      h6: 'h4',
      a: (tagName, { href, target }) => {
        if (!isAllowedHref(href)) return { tagName, attribs: {} };
        const attribs: sanitizeHtml.Attributes = {};
        if (target === '_blank') attribs.target = target;
        attribs.rel = LINK_REL;
        attribs.href = href!.trim();
        return { tagName, attribs };
      },
    },
    exclusiveFilter: (frame) => {
      // A link whose URL was refused keeps its text; an image not from this app's media goes.
      if (frame.tag === 'a' && !frame.attribs.href) return 'excludeTag';
      if (frame.tag === 'img') return !isMediaUrl(frame.attribs.src, prefixes);
      return false;
    },
  };
}

/**
 * `html` reduced to the safe subset. `mediaPrefixes` are the URL prefixes images may load from
 * (see {@link mediaPrefixes}); any other image is removed.
 */
export function sanitizeRichText(
  html: string,
  allowedMediaPrefixes: readonly string[] = ['/media/'],
): string {
  return sanitizeHtml(html, options(allowedMediaPrefixes)).trim();
}

/** True when sanitised `html` shows something: text other than white space, an image or a rule. */
export function hasVisibleContent(html: string): boolean {
  if (/<(img|hr)\b/i.test(html)) return true;
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} });
  return text.replace(/&nbsp;|&#160;|&#xa0;|[\s\u00a0\u200b\ufeff]/gi, '') !== '';
}
