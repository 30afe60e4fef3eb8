/** The school's Durable Object (docs/decisions/0024), addressed by the school's id. */
export function schoolObject(env: Pick<Env, "SCHOOLS">, schoolId: number) {
  return env.SCHOOLS.getByName(`school:${schoolId}`);
}
