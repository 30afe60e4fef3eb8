import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * When the root's and the school layout's data load again: their data (the publisher, the school,
 * the teacher's name) changes through a form the user sends (a new name, signing out) or on a move
 * to another school, never with the URL's query. So a filter change, a link to the page already
 * shown or 'Try Again' ask only for the page's own data. A load that fails drops the failed route's
 * data: had the root or the layout been asked again when the connection dropped, the school's
 * layout and its words would be gone with it, leaving the root's 'Unexpected Application Error!'.
 */
export function shouldRevalidate({
  formMethod,
  currentParams,
  nextParams,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (currentParams.slug !== nextParams.slug) return true;
  const submitted = formMethod !== undefined && formMethod.toUpperCase() !== "GET";
  return submitted && defaultShouldRevalidate;
}
