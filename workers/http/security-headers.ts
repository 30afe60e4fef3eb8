/** A fresh CSP nonce for the inline scripts React Router and the theme script emit. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(nonce: string | null): string {
  const scripts = nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : "'self'";
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    // React sets style attributes (progress bars, tooltips); no external styles are loaded.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // pdf.js runs its parser in a worker built from our own bundle.
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Copies the response with the headers every answer carries. Vite's dev server injects inline
 * scripts without our nonce, so `strict` is off there.
 */
export function withSecurityHeaders(response: Response, options: { nonce: string | null; strict: boolean; https: boolean }): Response {
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  if (options.strict) headers.set("Content-Security-Policy", contentSecurityPolicy(options.nonce));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
  if (options.https) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  return secured;
}
