import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";

/** The Delete button and its confirmation; the page's action deletes the book and goes to the list. */
export function DeleteBook({ title, schoolCount }: { title: string; schoolCount: number }) {
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  const deleting = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} className="text-red-700 dark:text-red-300">
        Delete
      </Button>
      <Dialog
        id="delete-book-dialog"
        open={open}
        onClose={() => setOpen(false)}
        title="Delete this book?"
        description={`"${title}" will be removed from ${schoolCount} school(s), with its PDF, cover and every teacher's reading progress. This cannot be undone.`}
      >
        <Form method="post" className="flex justify-end gap-3">
          <input type="hidden" name="intent" value="delete" />
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Keep it
          </Button>
          <Button type="submit" disabled={deleting} className="bg-red-600 hover:bg-red-700">
            {deleting ? "Deleting..." : "Delete book"}
          </Button>
        </Form>
      </Dialog>
    </>
  );
}
