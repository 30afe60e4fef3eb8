// A CSV import's file input is marked by a refusal about the rows, and only while that refusal is
// the one shown: picking another file (which cannot be read here) takes the mark away.

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, data } from "react-router";
import { describe, expect, it } from "vitest";
import { CsvFileField } from "../../app/components/admin/csv-import.tsx";
import { useRowsImport } from "../../app/components/admin/rows-import.ts";

function Import() {
  const { message, busy, fileError, pick } = useRowsImport({ maxRows: 10, noun: "schools", saved: () => "saved" });
  return (
    <>
      <CsvFileField id="import-file" error={fileError} disabled={busy !== null} onPick={pick} />
      {message && <p data-testid="message">{message.text}</p>}
    </>
  );
}

const csv = (text: string, name = "schools.csv") => new File([text], name, { type: "text/csv" });

describe("useRowsImport", () => {
  it("marks the file input for a refusal of its rows, until another file is picked", async () => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: Import,
        action: () => data({ error: "Row 2: the slug is taken", field: "rows.0.slug", rows: undefined }, { status: 400 }),
      },
    ]);
    render(<Stub initialEntries={["/"]} />);
    const input = screen.getByLabelText("CSV file");
    await userEvent.upload(input, csv("name,slug\nLincoln,lincoln\n"));
    await screen.findByText("Row 2: the slug is taken", { selector: "[data-testid=message]" });
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(input.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Row 2: the slug is taken");

    // A file without rows is refused in the browser: its own message, and the old mark is gone.
    await userEvent.upload(input, csv("name,slug\n", "empty.csv"));
    await screen.findByText("The file has no rows under its header.");
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(document.getElementById("import-file-error")).toBeNull();
  });
});
