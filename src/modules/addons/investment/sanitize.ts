import sanitizeHtml from 'sanitize-html';

/**
 * The allow-list of section HTML: text structure, emphasis, links with safe schemes and tables.
 * Anything else (script, style, iframe, event handlers, javascript: URLs) is dropped; the content of
 * script/style is dropped too, other disallowed tags keep their text.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'em',
    'strong',
    'b',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'a',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'br',
    'hr',
    'blockquote',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link opening a new tab must not hand the page to the target (reverse tabnabbing).
    a: (tagName, attribs) => {
      const { target, rel: _rel, ...rest } = attribs;
      return target === '_blank' ? { tagName, attribs: { ...rest, target, rel: 'noopener noreferrer' } } : { tagName, attribs: rest };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim(),
};

export function sanitizeSectionHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
