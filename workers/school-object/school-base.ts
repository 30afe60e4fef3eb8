/**
 * What every call of the school object (school-object.ts) stands on: which school the object is,
 * learnt on its first call, when what D1 held of the school's hot state moves in (move-in.ts); the
 * teacher's session checked first; a step in one storage transaction; the flush alarm set when a
 * step leaves something to flush (flush-alarm.ts). The RPC methods are the School class's.
 */
import { DurableObject } from "cloudflare:workers";
import { signedOut } from "../auth/signed-out.ts";
import { FlushAlarm } from "./flush-alarm.ts";
import { migrate } from "./migrations.ts";
import { moveIn, readHotStateFromD1 } from "./move-in.ts";
import { type ObjectOutcome, refuse } from "./refusals.ts";
import { hasStarted, readMeta, writeMeta } from "./school-storage.ts";
import * as sessions from "./sessions.ts";
import * as usage from "./usage.ts";

/** What the object needs of the Worker's bindings: D1, to move state in and flush usage out. */
export type SchoolEnv = { DB: D1Database };

/** What most calls may add: the time they happen at (the tests set it; else now). */
export type At = { now?: number };
/** A call on behalf of a teacher: the session's token hash, checked first. */
export type AsTeacher = { tokenHash: string } & At;

export class SchoolObjectBase extends DurableObject<SchoolEnv> {
  protected readonly sql: SqlStorage;
  protected schoolId: number | null = null;
  protected readonly flusher: FlushAlarm;
  /** A step that left something for the next flush calls this: the alarm is set. */
  protected readonly flushSoon = (now: number) => this.flusher.schedule(now);

  constructor(ctx: DurableObjectState, env: SchoolEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.flusher = new FlushAlarm(ctx.storage, () => this.env.DB);
    // An object that has never served its school has no tables yet (and writes none until it does).
    const started = hasStarted(this.sql);
    // The migrations added since the object last started, each once (migrations.ts).
    if (started) migrate(ctx.storage);
    this.schoolId = started ? readMeta(this.sql, "school_id") : null;
    // An object made before its sessions were tidied on its own alarm gets that alarm now (tidy.ts).
    if (started) void ctx.blockConcurrencyWhile(() => this.flusher.armTidy(Date.now()));
  }

  /**
   * The school this object is; on the first call ever, what D1 held of its hot state moves in.
   * False for a school D1 does not have (a made-up cookie, a deleted school): the object then
   * writes nothing, so no request can make an object that stays.
   */
  protected async ready(schoolId: number): Promise<boolean> {
    if (this.schoolId === schoolId) return true;
    if (this.schoolId !== null) throw new Error(`School object ${this.schoolId} was called as school ${schoolId}`);
    return this.ctx.blockConcurrencyWhile(async () => {
      if (this.schoolId !== null) return this.schoolId === schoolId;
      const found = await readHotStateFromD1(this.env.DB, schoolId, Date.now());
      if (!found) return false;
      migrate(this.ctx.storage);
      this.transaction(() => {
        moveIn(this.sql, found);
        writeMeta(this.sql, "school_id", schoolId);
      });
      this.schoolId = schoolId;
      return true;
    });
  }

  /** `step` once the object is this school; `absent` for a school D1 does not have. */
  protected async withSchool<T>(schoolId: number, absent: T, step: () => T): Promise<T> {
    return (await this.ready(schoolId)) ? step() : absent;
  }

  /**
   * `step` for the teacher whose session `call.tokenHash` is, checked first in the same
   * single-threaded step; else why not (not signed in, or disabled: workers/auth/signed-out.ts).
   */
  protected async withSession<T>(
    schoolId: number,
    call: AsTeacher,
    step: (teacher: sessions.SessionTeacher, now: number) => ObjectOutcome<T>,
  ): Promise<ObjectOutcome<T>> {
    if (!(await this.ready(schoolId))) return refuse(signedOut("none"));
    const now = call.now ?? Date.now();
    const session = sessions.checkSession(this.sql, call.tokenHash, now);
    return session.ok ? step(session.value, now) : session;
  }

  protected transaction<T>(step: () => T): T {
    return this.ctx.storage.transactionSync(step);
  }

  /** A reading event counted for the next flush, the alarm set. */
  protected countEvent(event: Omit<usage.ReadingEventInput, "now">, now: number) {
    usage.countEvent(this.sql, event, now);
    this.flusher.schedule(now);
  }
}
