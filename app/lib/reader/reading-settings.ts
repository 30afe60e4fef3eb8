import { useCallback, useEffect, useRef, useState } from "react";
import {
  type DataSaverChoice,
  DEFAULT_READING_SETTINGS,
  type ReadingSettings,
  readStoredSettings,
} from "#shared/rules/reading-settings.ts";

/**
 * The Text view's reading settings in the browser (docs/decisions/0031): kept on the teacher's
 * account (/api/teacher/reading-settings) so they follow the teacher to any device, and mirrored
 * in localStorage so the Text view opens in them at once, before the account answers. An admin's
 * reader (no teacher session) keeps them on the device only.
 */

export const READING_SETTINGS_PATH = "/api/teacher/reading-settings";
const STORAGE_KEY = "lectern-reading-settings";
/** Changes are saved once they stop for this long: stepping through sizes is one save. */
export const SAVE_DELAY_MS = 800;

/** Where the settings are kept: "account" once the server answered, "device" for a reader with no teacher account. */
export type SettingsHome = "unknown" | "account" | "device";
export type SaveState = "idle" | "saved" | "failed";

function loadLocal(): ReadingSettings {
  try {
    return readStoredSettings(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null"));
  } catch {
    return { ...DEFAULT_READING_SETTINGS };
  }
}

/** Said on `window` when this device's copy changes: the page view follows the data saver by it. */
const SETTINGS_CHANGED = "lectern-reading-settings-changed";

function storeLocal(settings: ReadingSettings) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Private mode or storage turned off: the account still has them.
  }
  window.dispatchEvent(new Event(SETTINGS_CHANGED));
}

/**
 * The data saver's choice as this device keeps it (docs/decisions/0048), followed as the reading
 * settings change it here or in another tab. Read from the device only: the page view asks the
 * account for nothing before its first page; the Text view's settings bring the account's here.
 */
export function useDataSaverChoice(): DataSaverChoice {
  const [choice, setChoice] = useState<DataSaverChoice>(() =>
    typeof window === "undefined" ? DEFAULT_READING_SETTINGS.dataSaver : loadLocal().dataSaver,
  );
  useEffect(() => {
    const read = () => setChoice(loadLocal().dataSaver);
    window.addEventListener(SETTINGS_CHANGED, read);
    window.addEventListener("storage", read);
    return () => {
      window.removeEventListener(SETTINGS_CHANGED, read);
      window.removeEventListener("storage", read);
    };
  }, []);
  return choice;
}

/**
 * The page view's own "Data saver" button: the choice is applied on this device at once and saved
 * to the account (read first, so the account's other settings stay as they are). Offline or with
 * no teacher account it stays on the device; the Text view's settings then bring the account's back.
 */
export async function chooseDataSaver(choice: DataSaverChoice): Promise<void> {
  storeLocal({ ...loadLocal(), dataSaver: choice });
  const account = await fetchSettings(new AbortController().signal);
  if (account && account.dataSaver !== choice) await putSettings({ ...account, dataSaver: choice }, false);
}

/** The teacher's settings from their account; null when there is no teacher session (an admin) or no answer. */
async function fetchSettings(signal: AbortSignal): Promise<ReadingSettings | null> {
  try {
    const response = await fetch(READING_SETTINGS_PATH, { credentials: "same-origin", signal });
    if (!response.ok) return null;
    // Read as a stored value is (readStoredSettings): a field this reader does not know is its default.
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null && "settings" in body ? readStoredSettings(body.settings) : null;
  } catch {
    return null;
  }
}

async function putSettings(settings: ReadingSettings, keepalive: boolean): Promise<boolean> {
  try {
    const response = await fetch(READING_SETTINGS_PATH, {
      method: "PUT",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(settings),
      keepalive,
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The settings, and `change` to set some of them: applied at once, mirrored on the device, and
 * saved to the account after SAVE_DELAY_MS without changes (at once, with `keepalive`, when the
 * Text view closes or the page goes away first).
 */
export function useReadingSettings(saveDelayMs = SAVE_DELAY_MS) {
  const [settings, setSettings] = useState(loadLocal);
  const latest = useRef(settings);
  const [home, setHome] = useState<SettingsHome>("unknown");
  const [saveState, setSaveState] = useState<SaveState>("idle");
  const homeRef = useRef<SettingsHome>("unknown");
  const unsaved = useRef<ReadingSettings | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);

  const save = useCallback((keepalive: boolean) => {
    clearTimeout(timer.current);
    const pending = unsaved.current;
    if (!pending || homeRef.current !== "account") return;
    unsaved.current = null;
    void putSettings(pending, keepalive).then((ok) => {
      if (mounted.current) setSaveState(ok ? "saved" : "failed");
    });
  }, []);

  useEffect(() => {
    mounted.current = true;
    const abort = new AbortController();
    void fetchSettings(abort.signal).then((stored) => {
      if (abort.signal.aborted) return;
      homeRef.current = stored ? "account" : "device";
      setHome(homeRef.current);
      // A change made before the account answered wins, and is saved now.
      if (unsaved.current) return save(false);
      if (!stored) return;
      latest.current = stored;
      setSettings(stored);
      storeLocal(stored);
    });
    const onHide = () => save(true);
    window.addEventListener("pagehide", onHide);
    return () => {
      mounted.current = false;
      abort.abort();
      window.removeEventListener("pagehide", onHide);
      save(true);
    };
  }, [save]);

  const change = useCallback(
    (patch: Partial<ReadingSettings>) => {
      const next = { ...latest.current, ...patch };
      latest.current = next;
      unsaved.current = next;
      setSettings(next);
      storeLocal(next);
      setSaveState("idle");
      clearTimeout(timer.current);
      timer.current = setTimeout(() => save(false), saveDelayMs);
    },
    [save, saveDelayMs],
  );

  return { settings, change, home, saveState };
}
