import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// happy-dom's <dialog> has no showModal; the browser's behaviour is covered end to end.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false;
};

// A component that logs an error is a failing component.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args) => {
    errors.push(args);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
  document.documentElement.className = "";
  if (errors.length) throw new Error(`console.error was called: ${errors.map((e) => e.join(" ")).join("\n")}`);
});
