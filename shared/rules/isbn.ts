/** Digits (and a trailing X for ISBN-10) with hyphens and spaces removed. */
export function normalizeIsbn(isbn: string): string {
  return isbn.replace(/[\s-]/g, "").toUpperCase();
}

export function isValidIsbn(isbn: string): boolean {
  const digits = normalizeIsbn(isbn);
  if (/^\d{13}$/.test(digits)) {
    const sum = [...digits].reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
    return sum % 10 === 0;
  }
  if (/^\d{9}[\dX]$/.test(digits)) {
    const sum = [...digits].reduce((total, d, i) => total + (d === "X" ? 10 : Number(d)) * (10 - i), 0);
    return sum % 11 === 0;
  }
  return false;
}

/** Completes a 12-digit ISBN-13 stem with its check digit, hyphenated as 978-X-XXXXXX-XX-C. */
export function isbn13FromStem(stem: string): string {
  if (!/^\d{12}$/.test(stem)) throw new Error(`ISBN stem must be 12 digits: ${stem}`);
  const sum = [...stem].reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  const check = (10 - (sum % 10)) % 10;
  return `${stem.slice(0, 3)}-${stem.slice(3, 4)}-${stem.slice(4, 10)}-${stem.slice(10, 12)}-${check}`;
}
