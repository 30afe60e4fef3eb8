/**
 * Mends, in memory, two kinds of PDF whose pages pdf.js would lose although they are there
 * (other readers, poppler for one, show them). The uploaded file stays the admin's: only the copy
 * pdf.js renders from is mended.
 * - A page-tree entry that is not a page (a number, a missing object, a node without a Kids array,
 *   a loop): pdf.js stops listing pages there, so every page after it is lost. An incremental
 *   update (appended; the original bytes stay as they are) puts an empty page in place of each
 *   such entry, reported in `unreadable` with the reason: it keeps its number and the pages after
 *   it stay.
 * - Encryption that covers only the attachments (Standard security handler, V 4 or 5, streams and
 *   strings with the Identity filter): the pages are not encrypted at all, but pdf.js asks for the
 *   password unless the attachments' filter says /AuthEvent /EFOpen. The trailers' /Encrypt key is
 *   renamed in place (same length, so every offset holds, and pdf.js's recovery, which reads the
 *   first trailer it finds, sees it too); we never read attachments. A file whose pages are
 *   encrypted is not touched.
 * pdf-lib parses the file; it is loaded only when a file needs mending.
 */
import type { PDFArray, PDFContext, PDFDict, PDFObject, PDFRef } from "pdf-lib";

export interface RepairedPdf {
  bytes: Uint8Array;
  /** Page number -> why it cannot be displayed (an entry of the page tree that is not a page). */
  unreadable: Map<number, string>;
}

type PdfLib = typeof import("pdf-lib");

/**
 * The mended file, or null when there is nothing this can mend: with `unlock`, the encryption must
 * cover only attachments; without it, the page tree must have an entry that is not a page.
 */
export async function repairPdf(bytes: Uint8Array, options: { unlock: boolean }): Promise<RepairedPdf | null> {
  const lib = await import("pdf-lib");
  let context: PDFContext;
  try {
    context = await lib.PDFParser.forBytesWithOptions(bytes, Number.POSITIVE_INFINITY, false).parseDocument();
  } catch {
    return null;
  }
  const encrypt = context.lookup(context.trailerInfo.Encrypt);
  if (options.unlock && !(encrypt instanceof lib.PDFDict && encryptsOnlyAttachments(lib, encrypt))) return null;
  const catalog = context.lookup(context.trailerInfo.Root);
  const rootRef = catalog instanceof lib.PDFDict ? catalog.get(lib.PDFName.of("Pages")) : undefined;
  const root = rootRef instanceof lib.PDFRef ? context.lookup(rootRef) : undefined;
  if (!(rootRef instanceof lib.PDFRef) || !(root instanceof lib.PDFDict)) return null;

  const unlocked = options.unlock ? withoutEncryptKeys(bytes) : bytes;
  const tree = mendPageTree(lib, context, rootRef, root);
  const prev = lastStartXref(bytes);
  if (!tree.unreadable.size || prev === null) return options.unlock ? { bytes: unlocked, unreadable: new Map() } : null;
  const trailer = new Map<string, PDFObject | undefined>([
    ["Root", context.trailerInfo.Root],
    ["Info", context.trailerInfo.Info],
    ["ID", context.trailerInfo.ID],
    ["Encrypt", options.unlock ? undefined : context.trailerInfo.Encrypt],
  ]);
  const update = incrementalUpdate(bytes.length, tree.rewritten, trailer, context.largestObjectNumber + 1, prev);
  const out = new Uint8Array(bytes.length + update.length);
  out.set(unlocked);
  out.set(update, bytes.length);
  return { bytes: out, unreadable: tree.unreadable };
}

const ENCRYPT = [..."/Encrypt"].map((char) => char.charCodeAt(0));
const RENAMED = [..."/Ignored"].map((char) => char.charCodeAt(0));

/**
 * A copy in which every `/Encrypt` key followed by a reference or a dictionary (what a trailer or
 * a cross-reference stream holds) is `/Ignored` instead.
 */
function withoutEncryptKeys(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  for (let at = out.indexOf(0x2f); at !== -1; at = out.indexOf(0x2f, at + 1)) {
    if (!ENCRYPT.every((byte, i) => out[at + i] === byte)) continue;
    const next = new TextDecoder("latin1").decode(out.subarray(at + ENCRYPT.length, at + ENCRYPT.length + 24));
    if (/^\s*(\d+\s+\d+\s+R|<<)/.test(next)) out.set(RENAMED, at);
  }
  return out;
}

function encryptsOnlyAttachments(lib: PdfLib, encrypt: PDFDict): boolean {
  const name = (key: string) => {
    const value = encrypt.lookup(lib.PDFName.of(key));
    return value instanceof lib.PDFName ? value.decodeText() : undefined;
  };
  const version = encrypt.lookup(lib.PDFName.of("V"));
  if (name("Filter") !== "Standard" || !(version instanceof lib.PDFNumber) || version.asNumber() < 4) return false;
  // For V 4 and 5 a missing StmF or StrF means Identity: no encryption.
  return (name("StmF") ?? "Identity") === "Identity" && (name("StrF") ?? "Identity") === "Identity";
}

/** The offset of the last cross-reference section, from the last `startxref` of the file. */
function lastStartXref(bytes: Uint8Array): number | null {
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 2048)));
  const matches = [...tail.matchAll(/startxref\s+(\d+)/g)];
  const offset = Number(matches.at(-1)?.[1]);
  return Number.isSafeInteger(offset) ? offset : null;
}

interface Mending {
  lib: PdfLib;
  context: PDFContext;
  /** Nodes rewritten and empty pages added, by reference: what the update holds. */
  rewritten: Map<PDFRef, PDFDict>;
  unreadable: Map<number, string>;
  visited: Set<PDFRef>;
  pages: number;
}

/**
 * Walks the page tree as pdf.js would list its pages, rewriting every node that holds an entry
 * which is not a page (the entry becomes a new empty page) or whose /Count no longer matches.
 */
function mendPageTree(lib: PdfLib, context: PDFContext, rootRef: PDFRef, root: PDFDict) {
  const mending: Mending = { lib, context, rewritten: new Map(), unreadable: new Map(), visited: new Set([rootRef]), pages: 0 };
  const kids = root.lookup(lib.PDFName.of("Kids"));
  if (kids instanceof lib.PDFArray) mendNode(mending, rootRef, root, kids);
  return { rewritten: mending.rewritten, unreadable: mending.unreadable };
}

/** Mends one node of the tree; returns its number of pages and the dict to use in its place. */
function mendNode(mending: Mending, ref: PDFRef | null, dict: PDFDict, kids: PDFArray): { count: number; dict: PDFDict } {
  const { lib, context } = mending;
  const { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef } = lib;
  const fixed: PDFObject[] = [];
  let changed = false;
  let count = 0;
  for (const entry of kids.asArray()) {
    const seen = entry instanceof PDFRef && mending.visited.has(entry);
    if (entry instanceof PDFRef) mending.visited.add(entry);
    const target = seen ? undefined : context.lookup(entry);
    // pdf.js's test for a page: /Type /Page, or no /Kids at all.
    if (target instanceof PDFDict && (target.lookup(PDFName.of("Type")) === PDFName.of("Page") || !target.has(PDFName.of("Kids")))) {
      fixed.push(entry);
      mending.pages++;
      count++;
      continue;
    }
    const subKids = target instanceof PDFDict ? target.lookup(PDFName.of("Kids")) : undefined;
    if (target instanceof PDFDict && subKids instanceof PDFArray) {
      const sub = mendNode(mending, entry instanceof PDFRef ? entry : null, target, subKids);
      // A node written out inside its parent changes the parent too.
      fixed.push(entry instanceof PDFRef ? entry : sub.dict);
      changed ||= sub.dict !== target && !(entry instanceof PDFRef);
      count += sub.count;
      continue;
    }
    mending.pages++;
    count++;
    mending.unreadable.set(mending.pages, describeEntry(lib, seen, entry, target));
    // An empty page in its place; its size comes from the parent, else Letter.
    const placeholder = context.nextRef();
    const page = context.obj({ Type: "Page", Resources: {} });
    if (ref) page.set(PDFName.of("Parent"), ref);
    mending.rewritten.set(placeholder, page);
    fixed.push(placeholder);
    changed = true;
  }
  const declared = dict.lookup(PDFName.of("Count"));
  if (!changed && declared instanceof PDFNumber && declared.asNumber() === count) return { count, dict };
  const copy = dict.clone(context);
  copy.set(PDFName.of("Kids"), context.obj(fixed));
  copy.set(PDFName.of("Count"), PDFNumber.of(count));
  if (ref) mending.rewritten.set(ref, copy);
  return { count, dict: copy };
}

function describeEntry(lib: PdfLib, seen: boolean, entry: PDFObject, target: PDFObject | undefined): string {
  const where = entry instanceof lib.PDFRef ? `object ${entry.objectNumber}` : "an entry";
  if (seen) return `The PDF's page tree lists ${where} twice (a loop), so there is no page here.`;
  if (target === undefined) return `The PDF's page tree points at ${where}, which does not exist, so there is no page here.`;
  if (target instanceof lib.PDFDict) return `The PDF's page tree has a node (${where}) without a list of pages, so there is no page here.`;
  return `The PDF's page tree holds ${where}, a ${kindOf(lib, target)} instead of a page, so there is no page here.`;
}

function kindOf(lib: PdfLib, value: PDFObject): string {
  if (value instanceof lib.PDFNumber) return "number";
  if (value instanceof lib.PDFString || value instanceof lib.PDFHexString) return "string";
  if (value instanceof lib.PDFName) return "name";
  if (value instanceof lib.PDFArray) return "list";
  if (value instanceof lib.PDFStream) return "stream";
  if (value instanceof lib.PDFBool) return "boolean";
  return "null";
}

/** The objects, a cross-reference section for them and a trailer, to append at `offset`. */
function incrementalUpdate(
  offset: number,
  objects: Map<PDFRef, PDFDict>,
  trailer: Map<string, PDFObject | undefined>,
  size: number,
  prev: number,
): Uint8Array {
  let text = "\n";
  const entries: string[] = [];
  for (const [ref, dict] of [...objects].sort(([a], [b]) => a.objectNumber - b.objectNumber)) {
    const at = offset + text.length;
    text += `${ref.objectNumber} ${ref.generationNumber} obj\n${dict.toString()}\nendobj\n`;
    entries.push(`${ref.objectNumber} 1\n${String(at).padStart(10, "0")} ${String(ref.generationNumber).padStart(5, "0")} n\r\n`);
  }
  const xref = offset + text.length;
  const keys = [...trailer].filter(([, value]) => value !== undefined).map(([key, value]) => `/${key} ${value!.toString()}`);
  text += `xref\n${entries.join("")}trailer\n<< /Size ${size} ${keys.join(" ")} /Prev ${prev} >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character is ASCII except what PDF strings copied from the file hold, which are bytes.
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}
