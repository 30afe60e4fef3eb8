/**
 * Leaves the login page for another page of the app. The login page has no client router (it
 * hydrates on its own), so this is a document load; tests replace `go` to see where it leads.
 */
export const pageNavigation = {
  go(url: string): void {
    window.location.assign(url);
  },
};
