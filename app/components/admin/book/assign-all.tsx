import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";

/** "Assign “Algebra I” to all 1,234 schools?" */
export function assignAllQuestion(title: string, schoolCount: number): string {
  if (schoolCount === 1) return `Assign “${title}” to the only school?`;
  return `Assign “${title}” to all ${schoolCount.toLocaleString("en-US")} schools?`;
}

/**
 * The "Assign to all schools" button and its confirmation, which names the book and how many
 * schools it reaches; Assign posts intent "assign-all" (with `bookId` when the page's URL does
 * not name the book) to the page's action.
 */
export function AssignToAllSchools({
  book,
  schoolCount,
  alreadyAssigned,
  sendBookId = false,
}: {
  book: { id: number; title: string };
  /** Every school there is (the loader's count). */
  schoolCount: number;
  /** How many of them have the book already, when the page knows. */
  alreadyAssigned?: number;
  sendBookId?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  const assigning = navigation.state === "submitting" && navigation.formData?.get("intent") === "assign-all";
  const newOnes = alreadyAssigned === undefined ? null : Math.max(0, schoolCount - alreadyAssigned);
  return (
    <>
      <Button variant="secondary" disabled={assigning || schoolCount === 0} onClick={() => setOpen(true)}>
        {assigning ? "Assigning..." : "Assign to all schools"}
      </Button>
      <Dialog
        id="assign-all-dialog"
        open={open}
        onClose={() => setOpen(false)}
        title={assignAllQuestion(book.title, schoolCount)}
        description={
          newOnes === null
            ? "Schools that have it already are left as they are. Their teachers can read it at once."
            : `${(alreadyAssigned ?? 0).toLocaleString("en-US")} of them have it already; ${newOnes.toLocaleString("en-US")} more will get it. Their teachers can read it at once.`
        }
      >
        <Form method="post" preventScrollReset className="flex justify-end gap-3" onSubmit={() => setOpen(false)}>
          <input type="hidden" name="intent" value="assign-all" />
          {sendBookId && <input type="hidden" name="bookId" value={book.id} />}
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit">Assign</Button>
        </Form>
      </Dialog>
    </>
  );
}
