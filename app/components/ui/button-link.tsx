import { Link, type LinkProps } from "react-router";
import { buttonClasses, type Variant } from "./button.tsx";

/** A router link that looks like a button (kept apart so plain buttons never pull in the router). */
export function ButtonLink({ variant = "primary", className = "", ...props }: LinkProps & { variant?: Variant }) {
  return <Link className={buttonClasses(variant, className)} {...props} />;
}
