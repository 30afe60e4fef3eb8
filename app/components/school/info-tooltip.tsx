import { type ReactNode, type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from "react";
import { Icon } from "../ui/icon.tsx";

export const TOOLTIP_CLOSE_DELAY_MS = 300;
/** Mouse-like events this soon after a touch are the browser's emulation of that touch. */
export const TOUCH_EMULATION_MS = 800;
/** A focus or click this soon after a press on the button comes from that press. */
const PRESS_MS = 1000;

/** How the tooltip came to be open: a hovering pointer, keyboard focus, or a click or tap (pinned). */
type OpenedBy = "hover" | "focus" | "pinned";

/**
 * An (i) button with a description tooltip. A mouse or pen hovering opens it, and it closes
 * 300 ms after the pointer leaves both the button and the tooltip (so the text can be reached);
 * keyboard focus opens it too. A tap on a touch screen toggles it, and so does a click, except
 * that a click on a tooltip that hovering has just opened keeps it open (pins it) instead of
 * shutting it under the pointer. A pinned tooltip stays until the button is clicked again, a
 * press lands outside it, or Escape.
 *
 * Touch screens also send a focus and, on some browsers, mouse-type pointer events after a tap:
 * focus that a press caused is ignored (the click decides), and mouse hover right after a touch
 * is the tap's emulation, not a mouse.
 */
export function InfoTooltip({
  id,
  label,
  children,
  buttonClassName,
  tooltipClassName,
}: {
  id: string;
  label: string;
  children: ReactNode;
  buttonClassName?: string;
  tooltipClassName?: string;
}) {
  const [openedBy, setOpenedBy] = useState<OpenedBy | null>(null);
  const open = openedBy !== null;
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastTouch = useRef(Number.NEGATIVE_INFINITY);
  // The pointer that last pressed the button, until its click arrives (none for Enter or Space).
  const pressed = useRef<{ type: string; at: number } | null>(null);
  const recentPress = () => (pressed.current && performance.now() - pressed.current.at < PRESS_MS ? pressed.current.type : null);
  const rootRef = useRef<HTMLSpanElement>(null);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  useEffect(() => {
    if (openedBy === null) return;
    const onPointerDown = (event: PointerEvent) => {
      if (openedBy === "pinned" && !rootRef.current?.contains(event.target as Node)) setOpenedBy(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpenedBy(null);
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [openedBy]);

  const cancelClose = () => clearTimeout(closeTimer.current);
  const isHover = (event: ReactPointerEvent) => event.pointerType !== "touch" && performance.now() - lastTouch.current > TOUCH_EMULATION_MS;
  const onEnter = (event: ReactPointerEvent) => {
    if (!isHover(event)) return;
    cancelClose();
    setOpenedBy((by) => by ?? "hover");
  };
  const onLeave = (event: ReactPointerEvent) => {
    if (!isHover(event)) return;
    cancelClose();
    closeTimer.current = setTimeout(() => setOpenedBy((by) => (by === "hover" ? null : by)), TOOLTIP_CLOSE_DELAY_MS);
  };

  return (
    <span ref={rootRef} className="contents">
      <button
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={id}
        onPointerEnter={onEnter}
        onPointerLeave={onLeave}
        onPointerDown={(event) => {
          pressed.current = { type: event.pointerType || "mouse", at: performance.now() };
          if (event.pointerType === "touch") lastTouch.current = performance.now();
        }}
        onFocus={() => {
          // Focus from a press: the click that follows decides. Focus from the keyboard opens.
          if (recentPress() === null) {
            cancelClose();
            setOpenedBy((by) => by ?? "focus");
          }
        }}
        onBlur={() => {
          cancelClose();
          setOpenedBy((by) => (by === "focus" ? null : by));
        }}
        onClick={() => {
          const pointer = recentPress();
          pressed.current = null;
          cancelClose();
          // A mouse click on what hovering just opened keeps it open; otherwise a click toggles.
          setOpenedBy((by) => (by === "hover" && pointer !== "touch" ? "pinned" : by === null ? "pinned" : null));
        }}
        className={buttonClassName}
      >
        <Icon className="h-4 w-4">
          <circle cx="12" cy="12" r="9" />
          <path d="M12 11v5M12 8h.01" strokeLinecap="round" />
        </Icon>
      </button>
      <div id={id} role="tooltip" hidden={!open} onPointerEnter={onEnter} onPointerLeave={onLeave} className={tooltipClassName}>
        {children}
      </div>
    </span>
  );
}
