import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { FileDrop, fileAccepted } from "../../app/components/ui/file-drop.tsx";
import { formatFileSize } from "../../app/lib/format-size.ts";

const COVER = ["image/jpeg", "image/png", "image/webp"];

function Cover({ onError = () => {}, disabled = false }: { onError?: (message: string) => void; disabled?: boolean }) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <FileDrop
      id="cover"
      label="Cover (optional)"
      accept={COVER}
      maxBytes={2 * 1024 * 1024}
      typeError="The cover must be a JPEG, PNG or WebP image."
      sizeError="The cover must be at most 2 MB."
      hint="JPEG, PNG or WebP, up to 2 MB."
      chosen={file}
      disabled={disabled}
      onFile={setFile}
      onError={onError}
    />
  );
}

const image = (name: string, bytes: number, type = "image/png") => new File([new Uint8Array(bytes)], name, { type });
const zone = () => document.querySelector<HTMLElement>("label[for='cover']:not(#cover-label)")!;
const drop = (files: File[]) => fireEvent.drop(zone(), { dataTransfer: { files, types: ["Files"], dropEffect: "none" } });

describe("FileDrop", () => {
  it("is the labelled file input, visually hidden but focusable from the keyboard, described by its hint", async () => {
    render(<Cover />);
    const input = screen.getByLabelText("Cover (optional)") as HTMLInputElement;
    expect(input.type).toBe("file");
    expect(input.accept).toBe("image/jpeg,image/png,image/webp");
    expect(input.className).toContain("sr-only");
    expect(document.getElementById("cover-label")?.textContent).toBe("Cover (optional)");
    expect(document.getElementById(input.getAttribute("aria-describedby")!)?.textContent).toBe("JPEG, PNG or WebP, up to 2 MB.");
    await userEvent.tab();
    expect(document.activeElement).toBe(input);
  });

  it("shows the chosen file's name and size, picked or dropped", async () => {
    render(<Cover />);
    const input = screen.getByLabelText("Cover (optional)") as HTMLInputElement;
    await userEvent.upload(input, image("front.png", 300 * 1024));
    expect(screen.getByText("front.png (300 KB)")).toBeTruthy();
    // The input is emptied, so the same file chosen again is a new choice.
    expect(input.value).toBe("");
    drop([image("back.webp", 1_572_864, "image/webp")]);
    expect(screen.getByText("back.webp (1.5 MB)")).toBeTruthy();
  });

  it("highlights while a file is dragged over it, and not after it leaves", () => {
    render(<Cover />);
    expect(zone().dataset.dragging).toBeUndefined();
    fireEvent.dragEnter(zone(), { dataTransfer: { files: [], types: ["Files"] } });
    fireEvent.dragOver(zone(), { dataTransfer: { files: [], types: ["Files"] } });
    expect(zone().dataset.dragging).toBe("true");
    expect(zone().textContent).toContain("Drop the file here");
    fireEvent.dragLeave(zone(), { relatedTarget: document.body });
    expect(zone().dataset.dragging).toBeUndefined();
  });

  it("refuses a dropped file of another type or too big, with the page's messages", () => {
    const onError = vi.fn();
    render(<Cover onError={onError} />);
    drop([image("book.pdf", 10, "application/pdf")]);
    expect(onError).toHaveBeenLastCalledWith("The cover must be a JPEG, PNG or WebP image.");
    drop([image("huge.jpg", 2 * 1024 * 1024 + 1, "image/jpeg")]);
    expect(onError).toHaveBeenLastCalledWith("The cover must be at most 2 MB.");
    expect(screen.getByText("JPEG, PNG or WebP, up to 2 MB.")).toBeTruthy();
  });

  it("takes nothing while disabled", () => {
    const onError = vi.fn();
    render(<Cover onError={onError} disabled />);
    expect((screen.getByLabelText("Cover (optional)") as HTMLInputElement).disabled).toBe(true);
    drop([image("front.png", 10)]);
    expect(screen.queryByText(/front\.png/)).toBeNull();
    expect(onError).not.toHaveBeenCalled();
  });
});

describe("fileAccepted and formatFileSize", () => {
  it("matches MIME types, wildcards and extensions; says sizes in B, KB, MB and GB", () => {
    expect(fileAccepted({ name: "a.PDF", type: "" }, ["application/pdf", ".pdf"])).toBe(true);
    expect(fileAccepted({ name: "a.txt", type: "text/plain" }, ["application/pdf", ".pdf"])).toBe(false);
    expect(fileAccepted({ name: "a.gif", type: "image/gif" }, ["image/*"])).toBe(true);
    const sizes = [10, 1023, 1024, 2048, 1048575, 5 * 1048576, 1.5 * 1073741824];
    expect(sizes.map(formatFileSize)).toEqual(["10 B", "1023 B", "1 KB", "2 KB", "1.0 MB", "5.0 MB", "1.5 GB"]);
  });
});
