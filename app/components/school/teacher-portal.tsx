import { useState } from "react";
import type { ProviderName } from "../../../workers/sso/providers.ts";
import { RegisterDialog } from "./register-dialog.tsx";
import { ResetPasswordDialog } from "./reset-password-dialog.tsx";
import { TeacherLoginCard } from "./teacher-login-card.tsx";

export type TeacherPortalProps = {
  slug: string;
  schoolName: string;
  basePath: string;
  next: string;
  /** Why this browser's teacher is signed out, when the server knows (an admin disabled the account). */
  notice?: string | null;
  /** The providers the school signs in with (docs/decisions/0029). */
  providers?: ProviderName[];
};

/** The id of the element the login page's island hydrates (see app/islands/teacher-portal.client.tsx). */
export const TEACHER_PORTAL_ID = "teacher-portal";

/**
 * The interactive part of a school's login page: the login card and the register and reset
 * dialogs. It uses no router and no query cache, so it can hydrate on its own.
 */
export function TeacherPortal({ slug, schoolName, basePath, next, notice = null, providers = [] }: TeacherPortalProps) {
  const [dialog, setDialog] = useState<"register" | "reset" | null>(null);
  const [resetEmail, setResetEmail] = useState("");
  return (
    <>
      <TeacherLoginCard
        slug={slug}
        schoolName={schoolName}
        next={next}
        notice={notice}
        providers={providers}
        onRegister={() => setDialog("register")}
        onForgotPassword={(email) => {
          setResetEmail(email);
          setDialog("reset");
        }}
      />
      <RegisterDialog
        open={dialog === "register"}
        onClose={() => setDialog(null)}
        slug={slug}
        schoolName={schoolName}
        basePath={basePath}
      />
      <ResetPasswordDialog open={dialog === "reset"} onClose={() => setDialog(null)} slug={slug} email={resetEmail} />
    </>
  );
}
