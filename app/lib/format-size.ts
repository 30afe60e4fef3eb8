/** A file's size as people read it: "13 B", "820 KB", "12.4 MB", "1.2 GB". */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${Math.max(0, Math.round(bytes))} B`;
  const kilobytes = Math.round(bytes / 1024);
  if (kilobytes < 1024) return `${kilobytes} KB`;
  const megabytes = bytes / 1048576;
  if (megabytes < 1023.95) return `${megabytes.toFixed(1)} MB`;
  return `${(bytes / 1073741824).toFixed(1)} GB`;
}
