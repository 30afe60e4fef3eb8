let loading: Promise<unknown> | null = null;

/**
 * OpenDyslexic's @font-face rules (from @fontsource/opendyslexic, shipped with the app), loaded the
 * first time a teacher picks the font: a stylesheet chunk of its own, so no one else downloads it.
 * A .client module: the Worker's build leaves it (and the font files) out.
 */
export function loadDyslexicFont(): Promise<unknown> {
  loading ??= Promise.all([import("@fontsource/opendyslexic/400.css"), import("@fontsource/opendyslexic/700.css")]).catch(() => {
    loading = null;
  });
  return loading;
}
