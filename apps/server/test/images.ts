/** Real image files for upload tests, made with sharp so each is a genuine, decodable file. */
import sharp from 'sharp';

const picture = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

export const images = {
  jpeg: () =>
    picture()
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif' } } })
      .toBuffer(),
  png: (width?: number, height?: number) => picture(width, height).png().toBuffer(),
  webp: () => picture().webp().toBuffer(),
  gif: () => picture().gif().toBuffer(),
};
