// Package mono provides a 1-bit image, one bit per dot packed most
// significant bit first with 1 meaning ink (black), the layout that
// thermal label printers (ZPL ^GF graphic fields, Brother QL raster
// lines) and engraver bitmaps take. Image implements draw.Image, so any
// picture can be drawn onto it, and FromImage thresholds a picture.
// Marks keeps only the dots of one colour (a tag's marks on its metal),
// and Edges draws the outline of a shape's opaque part: the colour-to-1-
// bit steps of a label made from a tag preview.
//
// # References
//
//   - Zebra ZPL II Programming Guide (45541L-002), ^GF Graphic Field:
//     rows packed 1 bit per dot, leftmost dot in the most significant
//     bit, 1 = black.
//   - Brother Raster Command Reference (QL series), raster line layout.
//   - periph.io/x/devices ssd1306/image1bit, the model for a 1-bit
//     draw.Image.
package mono
