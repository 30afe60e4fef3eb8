import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MessageBox, messageTone } from "../../app/components/ui/message-box.tsx";

describe("MessageBox", () => {
  it.each([
    ["Development Mode: your code is 123456", "info"],
    ["Testing: mail is captured", "warning"],
    ["Invalid OTP", "error"],
  ] as const)("%s is shown as %s", (text, tone) => {
    expect(messageTone(text)).toBe(tone);
    render(<MessageBox text={text} />);
    expect(screen.getByText(text).getAttribute("data-tone")).toBe(tone);
  });
});
