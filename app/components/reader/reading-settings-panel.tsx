import type { ReactNode, Ref } from "react";
import type { ReadingSettings } from "#shared/rules/reading-settings.ts";
import { dataSaverOn, savingText, useConnectionHints } from "../../lib/reader/data-saver.ts";
import type { ReceivedSizes } from "../../lib/reader/page-store.ts";
import type { SaveState, SettingsHome } from "../../lib/reader/reading-settings.ts";

type Option<T extends string> = { value: T; label: ReactNode; name?: string };

const TEXT_SIZE_OPTIONS: Option<ReadingSettings["textSize"]>[] = [
  { value: "small", label: <span className="text-xs">A</span>, name: "Small" },
  { value: "medium", label: <span className="text-sm">A</span>, name: "Medium" },
  { value: "large", label: <span className="text-base">A</span>, name: "Large" },
  { value: "x-large", label: <span className="text-lg">A</span>, name: "Larger" },
  { value: "xx-large", label: <span className="text-xl">A</span>, name: "Largest" },
];
const SPACING_OPTIONS: Option<ReadingSettings["lineSpacing"]>[] = [
  { value: "normal", label: "Normal" },
  { value: "wide", label: "Wide" },
  { value: "wider", label: "Wider" },
];
const FONT_OPTIONS: Option<ReadingSettings["font"]>[] = [
  { value: "standard", label: "Standard" },
  { value: "dyslexic", label: "OpenDyslexic" },
];
const DATA_SAVER_OPTIONS: Option<ReadingSettings["dataSaver"]>[] = [
  { value: "off", label: "Off", name: "Data saver off" },
  { value: "auto", label: "Automatic", name: "Data saver automatic (on a slow connection or when the browser asks to save data)" },
  { value: "on", label: "On", name: "Data saver on" },
];
const THEME_OPTIONS: Option<ReadingSettings["theme"]>[] = [
  { value: "auto", label: "Auto", name: "Auto (the app's theme)" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "sepia", label: "Sepia" },
];

/** A row of radio buttons drawn as one segmented control: Tab reaches it, the arrow keys choose. */
function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: Option<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-1">
        {options.map((option) => (
          <label key={option.value} className="relative">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="peer sr-only"
              aria-label={option.name}
            />
            <span className="flex min-h-10 min-w-10 cursor-pointer items-center justify-center rounded-lg border border-current/20 px-3 py-1.5 text-sm peer-checked:border-indigo-600 peer-checked:bg-indigo-600 peer-checked:font-semibold peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-indigo-500 peer-focus-visible:ring-offset-1 hover:bg-current/10 peer-checked:hover:bg-indigo-600">
              {option.label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const SAVED: Record<SettingsHome, Record<SaveState, string>> = {
  unknown: { idle: "", saved: "", failed: "" },
  account: {
    idle: "Kept on your account, for every device you sign in on.",
    saved: "Saved to your account.",
    failed: "These settings could not be saved to your account; this device keeps them.",
  },
  device: { idle: "Kept on this device.", saved: "Kept on this device.", failed: "Kept on this device." },
};

/**
 * Text size, line spacing, font and theme of the Text view, and the page view's data saver with
 * what it saved in this visit (`received`); `id` is what its toggle controls (there while hidden).
 */
export function ReadingSettingsPanel({
  id,
  hidden,
  settings,
  home,
  saveState,
  received,
  onChange,
  className,
}: {
  id: string;
  hidden: boolean;
  settings: ReadingSettings;
  home: SettingsHome;
  saveState: SaveState;
  /** The page images received in this visit (the page store's). */
  received: ReceivedSizes;
  onChange: (patch: Partial<ReadingSettings>) => void;
  className: string;
}) {
  const hints = useConnectionHints();
  return (
    <section id={id} hidden={hidden} aria-label="Reading settings" data-reader-panel className={`shrink-0 border-b px-3 py-3 ${className}`}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Choice
          legend="Text size"
          name="reading-text-size"
          value={settings.textSize}
          options={TEXT_SIZE_OPTIONS}
          onChange={(textSize) => onChange({ textSize })}
        />
        <Choice
          legend="Line spacing"
          name="reading-line-spacing"
          value={settings.lineSpacing}
          options={SPACING_OPTIONS}
          onChange={(lineSpacing) => onChange({ lineSpacing })}
        />
        <Choice legend="Font" name="reading-font" value={settings.font} options={FONT_OPTIONS} onChange={(font) => onChange({ font })} />
        <Choice
          legend="Colours"
          name="reading-theme"
          value={settings.theme}
          options={THEME_OPTIONS}
          onChange={(theme) => onChange({ theme })}
        />
        <div>
          <Choice
            legend="Data saver"
            name="reading-data-saver"
            value={settings.dataSaver}
            options={DATA_SAVER_OPTIONS}
            onChange={(dataSaver) => onChange({ dataSaver })}
          />
          <p data-saving className="mt-1 text-xs opacity-80">
            {savingText(settings.dataSaver, dataSaverOn(settings.dataSaver, hints), received)}
          </p>
        </div>
      </div>
      <p role="status" className="mt-2 text-xs opacity-80">
        {SAVED[home][saveState]}
      </p>
    </section>
  );
}

/** The button that shows and hides the reading settings (`controls`: the panel's id). */
export function ReadingSettingsToggle({
  ref,
  controls,
  open,
  onToggle,
}: {
  ref: Ref<HTMLButtonElement>;
  controls: string;
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      ref={ref}
      type="button"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
      className={`inline-flex min-h-10 items-center gap-1.5 rounded-lg border border-current/20 px-3 py-1.5 text-sm font-medium hover:bg-current/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${open ? "bg-current/10" : ""}`}
    >
      <span aria-hidden="true" className="font-serif text-base leading-none">
        Aa
      </span>
      Reading settings
    </button>
  );
}
