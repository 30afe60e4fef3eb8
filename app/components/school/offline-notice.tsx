import { buttonClasses } from "../ui/button.tsx";
import { Icon } from "../ui/icon.tsx";
import { StatusPanel } from "../ui/status-panel.tsx";

export const OFFLINE_PAGE_TITLE = "You are offline";
export const OFFLINE_PAGE_TEXT =
  "This page was not kept on this device, so it cannot open without a connection. The pages you opened while online, and the books you kept for offline reading, still open. Reload this page once you are back online.";

/**
 * What the installable app shows for a school page that was never kept (docs/decisions/0049).
 * A plain link only: the page runs no script. The service worker answers it in place of the page
 * the teacher asked for, at that page's address, so reloading asks for that page again.
 */
export function OfflineNotice({ basePath }: { basePath: string }) {
  return (
    <StatusPanel
      title={OFFLINE_PAGE_TITLE}
      icon={
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700 dark:bg-indigo-900/60 dark:text-indigo-200">
          <Icon className="h-6 w-6">
            <path d="M2 8.8a15 15 0 0 1 20 0M5 12.5a10 10 0 0 1 14 0M8.5 16a5 5 0 0 1 7 0M12 19.5h.01M3 3l18 18" strokeLinecap="round" />
          </Icon>
        </span>
      }
      actions={
        <a href={`${basePath}/dashboard`} className={buttonClasses("primary", "px-5")}>
          Back to Dashboard
        </a>
      }
    >
      <p role="status">{OFFLINE_PAGE_TEXT}</p>
    </StatusPanel>
  );
}
