/**
 * The capacity probe's D1 binding (capacity-probe.ts): every statement counted with its meta. first()
 * and raw() drop the meta D1 answers with, so first() goes through all() and raw() asks the binding
 * the way its own raw() does (its session's private _sendOrThrow / _queryOrThrow, read from
 * workerd's d1-api); a binding without them is still counted, untimed, as `withoutMeta`.
 */
import { type Meta, type Origin, record, timedD1 } from "./capacity-probe-counts.ts";

interface StatementInternals {
  statement: string;
  params: unknown[];
  dbSession?: {
    _sendOrThrow?: (endpoint: string, sql: string, params: unknown[], format: string, span: unknown) => Promise<unknown>;
    _queryOrThrow?: (request: { queries: { sql: string; params: unknown[] }[] }, span: unknown) => Promise<unknown>;
  };
}
type RawAnswer = { meta?: Meta; results?: { columns: string[]; rows: unknown[][] } | Record<string, unknown>[] };
const NO_SPAN = { setAttribute() {}, setAttributes() {} };
const jsRpcD1 = () =>
  Boolean(
    (globalThis as { Cloudflare?: { compatibilityFlags?: Record<string, boolean> } }).Cloudflare?.compatibilityFlags?.d1_binding_jsrpc,
  );

class ProbedStatement {
  inner: D1PreparedStatement;
  sql: string;
  origin: Origin;

  constructor(inner: D1PreparedStatement, sql: string, origin: Origin) {
    this.inner = inner;
    this.sql = sql;
    this.origin = origin;
  }

  bind(...values: unknown[]): ProbedStatement {
    return new ProbedStatement(this.inner.bind(...values), this.sql, this.origin);
  }

  run() {
    return timedD1(this.origin, async () => {
      const result = await this.inner.run();
      record(this.origin, this.sql, result.meta);
      return result;
    });
  }

  all() {
    return timedD1(this.origin, async () => {
      const result = await this.inner.all();
      record(this.origin, this.sql, result.meta);
      return result;
    });
  }

  async first(column?: string) {
    const rows = (await this.all()).results as Record<string, unknown>[];
    const row = rows[0];
    if (!row) return null;
    if (column === undefined) return row;
    if (row[column] === undefined) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
    return row[column];
  }

  raw(options?: { columnNames?: boolean }) {
    return timedD1(this.origin, async () => {
      const inner = this.inner as unknown as StatementInternals;
      const session = inner.dbSession;
      const query = { sql: inner.statement, params: inner.params };
      let answer: unknown;
      if (jsRpcD1() && session?._queryOrThrow) answer = await session._queryOrThrow({ queries: [query] }, NO_SPAN);
      else if (!jsRpcD1() && session?._sendOrThrow)
        answer = await session._sendOrThrow("/query", query.sql, query.params, "ROWS_AND_COLUMNS", NO_SPAN);
      else {
        record(this.origin, this.sql, undefined);
        return this.inner.raw(options as { columnNames: true });
      }
      const first = (Array.isArray(answer) ? answer[0] : answer) as RawAnswer;
      record(this.origin, this.sql, first.meta);
      const results = first.results;
      if (!results) return [];
      if (Array.isArray(results)) {
        const rows = results.map((row) => Object.values(row));
        return options?.columnNames && results[0] ? [Object.keys(results[0]), ...rows] : rows;
      }
      return [...(options?.columnNames ? [results.columns] : []), ...results.rows];
    });
  }
}

const unwrap = (statement: D1PreparedStatement | ProbedStatement) => (statement instanceof ProbedStatement ? statement.inner : statement);

/** The D1 binding (or one of its sessions) with every statement counted; anything else passes through. */
export function probeD1<T extends object>(db: T, origin: Origin): T {
  return new Proxy(db, {
    get(target, property) {
      const d1 = target as unknown as D1Database;
      if (property === "prepare") return (sql: string) => new ProbedStatement(d1.prepare(sql), sql, origin);
      if (property === "batch")
        return (statements: (D1PreparedStatement | ProbedStatement)[]) =>
          timedD1(origin, async () => {
            const results = await d1.batch(statements.map(unwrap));
            results.forEach((result, i) => {
              const statement = statements[i]!;
              record(origin, statement instanceof ProbedStatement ? statement.sql : "(unprobed statement)", result.meta);
            });
            return results;
          });
      if (property === "exec")
        return (sql: string) =>
          timedD1(origin, async () => {
            const result = await d1.exec(sql);
            for (let i = 0; i < result.count; i++) record(origin, "(exec)", { duration: i === 0 ? result.duration : 0 });
            return result;
          });
      if (property === "withSession")
        return (...args: unknown[]) => probeD1((d1.withSession as (...a: unknown[]) => object)(...args), origin);
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
