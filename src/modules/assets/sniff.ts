import { fileTypeFromBuffer } from 'file-type';

/** Bytes file-type needs to recognise every format it knows from the head of a file. */
export const SNIFF_BYTES = 4100;

// Text formats have no signature: the extension (then the declared type) names them, but only
// once the content has been checked to be text, so a binary can never pass as one.
const TEXT_BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv',
  txt: 'text/plain',
  text: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  svg: 'image/svg+xml',
  dxf: 'image/vnd.dxf',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  ifc: 'application/x-step',
};
const TEXT_DECLARED = new Set([...Object.values(TEXT_BY_EXTENSION), 'application/dxf', 'image/x-dxf', 'text/xml', 'text/tab-separated-values']);

/** DWG files start with "AC10" followed by the release digits (AC1015, AC1032, …); file-type does not know them. */
const isDwg = (head: Buffer) => head.length >= 6 && head.subarray(0, 4).toString('latin1') === 'AC10' && /^\d\d$/.test(head.subarray(4, 6).toString('latin1'));

function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return true;
  if (head.includes(0)) return false;
  // The head may end inside a multi-byte character; only the bytes before the last 3 must decode.
  const body = head.length > 3 ? head.subarray(0, head.length - 3) : head;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

const extensionOf = (filename: string | undefined) => /\.([a-z0-9]{1,8})$/i.exec(filename ?? '')?.[1]?.toLowerCase();

const isSvg = (head: Buffer) => /<svg[\s>]/i.test(head.toString('utf8'));

/**
 * The MIME type of a file from its first bytes: the signature when it has one, else (for text)
 * the extension or the declared type of known text formats, else a generic type.
 */
export async function sniffMimeType(head: Buffer, filename: string | undefined, declaredType: string | undefined): Promise<string> {
  if (isDwg(head)) return 'image/vnd.dwg';
  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    if (detected.mime === 'application/xml' && isSvg(head)) return 'image/svg+xml';
    return detected.mime;
  }
  if (!looksLikeText(head)) return 'application/octet-stream';
  if (isSvg(head)) return 'image/svg+xml';
  const byExtension = TEXT_BY_EXTENSION[extensionOf(filename) ?? ''];
  if (byExtension) return byExtension;
  const declared = declaredType?.split(';')[0]?.trim().toLowerCase();
  if (declared && TEXT_DECLARED.has(declared)) return declared;
  return 'text/plain';
}

/** Types a browser would execute or render as a document: served as attachments under a sandbox CSP. */
export function isActiveType(mimeType: string): boolean {
  return (
    /^(text\/html|application\/xhtml|image\/svg|text\/xml|application\/xml|application\/(x-)?javascript|text\/javascript|application\/ecmascript|text\/ecmascript)/i.test(
      mimeType,
    ) || mimeType.endsWith('+xml')
  );
}
