// The spec's client-side admin flag: a convenience for the UI only. The server session decides.
const FLAG = "adminAuthenticated";
const EXPIRES = "adminSessionExpiresAt";
export const ADMIN_AUTO_LOGOUT_MS = 9_000_000;

export function markAdminSignedIn(expiresAt: number): void {
  try {
    localStorage.setItem(FLAG, "true");
    localStorage.setItem(EXPIRES, String(expiresAt));
  } catch {}
}

export function clearAdminFlag(): void {
  try {
    localStorage.removeItem(FLAG);
    localStorage.removeItem(EXPIRES);
  } catch {}
}
