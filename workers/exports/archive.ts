/**
 * A ZIP written as it goes (docs/decisions/0044): fflate's streaming `Zip` deflates each file as its
 * text arrives and hands the archive's bytes to a sink (an R2 multipart upload, or a response's
 * stream). fflate is synchronous, so the bytes it makes are queued and handed to the sink after each
 * write: at most one write's output (a page of rows) waits in memory, whatever the size of the whole.
 */
import { Zip, ZipDeflate } from "fflate";

/** Where the archive's bytes go, in order. */
export interface ByteSink {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** A response body's sink, which can also end the body with an error. */
export interface StreamSink extends ByteSink {
  abort(reason: unknown): Promise<void>;
}

export interface Archive {
  /** A file whose text is written in pieces (a CSV page by page); only one is open at a time. */
  open(name: string): Promise<ArchiveFile>;
  /** A whole small file at once. */
  add(name: string, text: string): Promise<void>;
  /** The central directory written and the sink closed. */
  finish(): Promise<void>;
}

export interface ArchiveFile {
  write(text: string): Promise<void>;
  end(): Promise<void>;
}

/** CSVs and Markdown compress well at fflate's default level; higher levels cost CPU for a few per cent. */
const LEVEL = 6;

export function openArchive(sink: ByteSink, modified = new Date()): Archive {
  const queued: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else if (chunk.length) queued.push(chunk);
  });
  const encoder = new TextEncoder();
  const drain = async () => {
    if (failure) throw failure;
    while (queued.length) await sink.write(queued.shift()!);
  };
  let current: ZipDeflate | null = null;

  const open = async (name: string): Promise<ArchiveFile> => {
    if (current) throw new Error(`${name} opened while another file is being written`);
    const file = new ZipDeflate(name, { level: LEVEL });
    file.mtime = modified;
    zip.add(file);
    current = file;
    return {
      write: async (text) => {
        if (text) file.push(encoder.encode(text));
        await drain();
      },
      end: async () => {
        file.push(new Uint8Array(0), true);
        current = null;
        await drain();
      },
    };
  };

  return {
    open,
    add: async (name, text) => {
      const file = await open(name);
      await file.write(text);
      await file.end();
    },
    finish: async () => {
      zip.end();
      await drain();
      await sink.close();
    },
  };
}

/**
 * A sink that is a response's body: the bytes go out as they are made, and a slow reader holds the
 * writer back (the stream's high-water mark), so nothing piles up.
 */
export function streamSink(): { sink: StreamSink; readable: ReadableStream<Uint8Array> } {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  return {
    readable,
    sink: {
      write: async (chunk) => {
        await writer.ready;
        await writer.write(chunk);
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason).catch(() => {}),
    },
  };
}
