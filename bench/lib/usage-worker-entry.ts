// The usage bench Worker's entry (bench/lib/usage-worker.ts, which Node imports too): the
// configuration it starts with binds the school objects (wrangler.toml), so workerd needs their
// class exported, though this Worker calls none.
export { School } from "../../workers/school-object/school-object.ts";
export { default } from "./usage-worker.ts";
