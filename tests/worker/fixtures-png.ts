import { PhotonImage } from "@cf-wasm/photon";

/** The viewer the stamp tests mark pages for: name, e-mail, school and day, as the stamp takes them. */
export const DANA = ["Dana Whitfield", "dana.whitfield@lincoln-high.example.org", "Lincoln High School", "Nov 22, 2026"];

/** RGBA pixels as a PNG, encoded by photon: how these tests make the stored page they stamp or trace. */
export function pngOf(pixels: Uint8Array, width: number, height: number): Uint8Array {
  const image = new PhotonImage(pixels, width, height);
  try {
    return image.get_bytes();
  } finally {
    image.free();
  }
}

/** A PNG (or other image photon reads) back as its size and RGBA pixels. */
export function rgbaOf(bytes: Uint8Array): { width: number; height: number; pixels: Uint8Array } {
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    return { width: image.get_width(), height: image.get_height(), pixels: image.get_raw_pixels() };
  } finally {
    image.free();
  }
}
