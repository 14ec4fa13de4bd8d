//! `--screenshot`: draws the window without a display and writes it as a PNG.
//!
//! egui is run headless ([`egui::Context::run_ui`]) on the same [`crate::view::draw`] the window
//! uses; its tessellated meshes are then filled by a small software rasteriser (triangles with
//! interpolated premultiplied colours, bilinear texture sampling, blending in gamma space as
//! egui's own painters do, a top-left fill rule so that shared edges are drawn once). No GPU, no
//! window system, no wgpu: the look of the GUI can be checked on any machine. Paint callbacks
//! (custom GPU drawing) are not drawn; the GUI uses none.

use std::collections::HashMap;
use std::path::Path;

use egui::epaint::textures::TexturesDelta;
use egui::epaint::{ClippedPrimitive, Color32, ImageData, Primitive, TextureId, Vertex};
use egui::{Pos2, RawInput, Rect, Vec2};

use crate::app::App;
use crate::view::{self, ViewState};

/// Why a screenshot could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ScreenshotError {
    #[error("cannot create {path}: {source}")]
    Create {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot encode PNG: {0}")]
    Encode(#[from] png::EncodingError),
}

/// An RGBA8 image, row-major, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<Color32>,
}

impl Image {
    fn new(width: usize, height: usize, fill: Color32) -> Self {
        Self {
            width,
            height,
            pixels: vec![fill; width * height],
        }
    }

    pub fn pixel(&self, x: usize, y: usize) -> Color32 {
        self.pixels[y * self.width + x]
    }

    /// Writes the image as an 8-bit RGBA PNG.
    pub fn save_png(&self, path: &Path) -> Result<(), ScreenshotError> {
        let file = std::fs::File::create(path).map_err(|source| ScreenshotError::Create {
            path: path.display().to_string(),
            source,
        })?;
        let mut encoder = png::Encoder::new(
            std::io::BufWriter::new(file),
            self.width as u32,
            self.height as u32,
        );
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        let bytes: Vec<u8> = self.pixels.iter().flat_map(|c| c.to_array()).collect();
        writer.write_image_data(&bytes)?;
        writer.finish()?;
        Ok(())
    }
}

/// Draws `app` into a `width` × `height` image (one pixel per point).
pub fn render(app: &App, width: usize, height: usize) -> Image {
    let ctx = egui::Context::default();
    let mut view_state = ViewState::default();
    let mut textures = Textures::default();
    let input = || RawInput {
        screen_rect: Some(Rect::from_min_size(
            Pos2::ZERO,
            Vec2::new(width as f32, height as f32),
        )),
        ..RawInput::default()
    };
    // egui sizes some widgets from the previous pass; a few passes let the layout settle.
    let mut output = ctx.run_ui(input(), |ui| {
        view::draw(app, &mut view_state, ui);
    });
    for _ in 0..2 {
        textures.apply(&mut output.textures_delta);
        output = ctx.run_ui(input(), |ui| {
            view::draw(app, &mut view_state, ui);
        });
    }
    textures.apply(&mut output.textures_delta);
    let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
    let mut image = Image::new(width, height, Color32::BLACK);
    for primitive in &primitives {
        paint_primitive(&mut image, primitive, output.pixels_per_point, &textures);
    }
    image
}

/// The textures egui has uploaded so far (the font atlas, mostly).
#[derive(Default)]
struct Textures {
    images: HashMap<TextureId, Image>,
}

impl Textures {
    /// Applies and clears `delta` (egui insists that every delta is handled).
    fn apply(&mut self, delta: &mut TexturesDelta) {
        for (id, deltas) in &delta.set {
            for d in deltas {
                let ImageData::Color(src) = &d.image;
                let [w, h] = src.size;
                match d.pos {
                    None => {
                        self.images.insert(
                            *id,
                            Image {
                                width: w,
                                height: h,
                                pixels: src.pixels.clone(),
                            },
                        );
                    }
                    Some([x0, y0]) => {
                        let Some(dst) = self.images.get_mut(id) else {
                            continue;
                        };
                        for y in 0..h.min(dst.height.saturating_sub(y0)) {
                            for x in 0..w.min(dst.width.saturating_sub(x0)) {
                                dst.pixels[(y0 + y) * dst.width + x0 + x] = src.pixels[y * w + x];
                            }
                        }
                    }
                }
            }
        }
        for id in &delta.free {
            self.images.remove(id);
        }
        delta.clear();
    }
}

fn paint_primitive(
    image: &mut Image,
    primitive: &ClippedPrimitive,
    pixels_per_point: f32,
    textures: &Textures,
) {
    let Primitive::Mesh(mesh) = &primitive.primitive else {
        return;
    };
    let clip = primitive.clip_rect;
    let clip = [
        (clip.min.x * pixels_per_point).round().max(0.0) as usize,
        (clip.min.y * pixels_per_point).round().max(0.0) as usize,
        ((clip.max.x * pixels_per_point).round().max(0.0) as usize).min(image.width),
        ((clip.max.y * pixels_per_point).round().max(0.0) as usize).min(image.height),
    ];
    let texture = textures.images.get(&mesh.texture_id);
    for tri in mesh.indices.chunks_exact(3) {
        let vertex = |i: u32| mesh.vertices.get(i as usize);
        if let (Some(a), Some(b), Some(c)) = (vertex(tri[0]), vertex(tri[1]), vertex(tri[2])) {
            fill_triangle(image, clip, [a, b, c], pixels_per_point, texture);
        }
    }
}

/// Twice the signed area of (a, b, p): positive when p is to the left of a→b (y down).
fn edge(a: Pos2, b: Pos2, p: Pos2) -> f32 {
    (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
}

fn fill_triangle(
    image: &mut Image,
    clip: [usize; 4],
    v: [&Vertex; 3],
    ppp: f32,
    texture: Option<&Image>,
) {
    let mut p = [v[0].pos * ppp, v[1].pos * ppp, v[2].pos * ppp];
    let mut v = v;
    let mut area = edge(p[0], p[1], p[2]);
    if area.abs() < 1e-6 {
        return;
    }
    if area < 0.0 {
        p.swap(1, 2);
        v.swap(1, 2);
        area = -area;
    }
    let min_x = (p
        .iter()
        .map(|q| q.x)
        .fold(f32::INFINITY, f32::min)
        .floor()
        .max(0.0) as usize)
        .max(clip[0]);
    let min_y = (p
        .iter()
        .map(|q| q.y)
        .fold(f32::INFINITY, f32::min)
        .floor()
        .max(0.0) as usize)
        .max(clip[1]);
    let max_x = (p
        .iter()
        .map(|q| q.x)
        .fold(f32::NEG_INFINITY, f32::max)
        .ceil()
        .max(0.0) as usize)
        .min(clip[2]);
    let max_y = (p
        .iter()
        .map(|q| q.y)
        .fold(f32::NEG_INFINITY, f32::max)
        .ceil()
        .max(0.0) as usize)
        .min(clip[3]);
    // Top-left rule: a pixel centre exactly on an edge belongs to the triangle only if the edge is
    // a top or left edge, so that triangles sharing the edge do not both blend it.
    let owns_edge = |a: Pos2, b: Pos2| (a.y == b.y && b.x < a.x) || b.y < a.y;
    let edges = [(p[1], p[2]), (p[2], p[0]), (p[0], p[1])];
    for y in min_y..max_y {
        for x in min_x..max_x {
            let centre = Pos2::new(x as f32 + 0.5, y as f32 + 0.5);
            let mut w = [0.0f32; 3];
            let mut inside = true;
            for (k, (a, b)) in edges.iter().enumerate() {
                let e = edge(*a, *b, centre);
                if e < 0.0 || (e == 0.0 && !owns_edge(*a, *b)) {
                    inside = false;
                    break;
                }
                w[k] = e / area;
            }
            if !inside {
                continue;
            }
            let mut colour = [0.0f32; 4];
            for (k, vertex) in v.iter().enumerate() {
                for (c, channel) in colour.iter_mut().zip(vertex.color.to_array()) {
                    *c += w[k] * f32::from(channel);
                }
            }
            if let Some(texture) = texture {
                let uv =
                    v[0].uv.to_vec2() * w[0] + v[1].uv.to_vec2() * w[1] + v[2].uv.to_vec2() * w[2];
                let texel = sample_bilinear(texture, uv);
                for (c, t) in colour.iter_mut().zip(texel) {
                    *c *= t / 255.0;
                }
            }
            let dst = &mut image.pixels[y * image.width + x];
            let d = dst.to_array();
            let keep = 1.0 - colour[3] / 255.0;
            let out: [u8; 4] = std::array::from_fn(|i| {
                (colour[i] + f32::from(d[i]) * keep)
                    .round()
                    .clamp(0.0, 255.0) as u8
            });
            *dst = Color32::from_rgba_premultiplied(out[0], out[1], out[2], out[3]);
        }
    }
}

fn sample_bilinear(texture: &Image, uv: Vec2) -> [f32; 4] {
    if texture.width == 0 || texture.height == 0 {
        return [255.0; 4];
    }
    let x = (uv.x * texture.width as f32 - 0.5).max(0.0);
    let y = (uv.y * texture.height as f32 - 0.5).max(0.0);
    let (x0, y0) = (
        (x as usize).min(texture.width - 1),
        (y as usize).min(texture.height - 1),
    );
    let (x1, y1) = (
        (x0 + 1).min(texture.width - 1),
        (y0 + 1).min(texture.height - 1),
    );
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let get = |x: usize, y: usize| texture.pixel(x, y).to_array().map(f32::from);
    let (a, b, c, d) = (get(x0, y0), get(x1, y0), get(x0, y1), get(x1, y1));
    std::array::from_fn(|i| {
        let top = a[i] + (b[i] - a[i]) * fx;
        let bottom = c[i] + (d[i] - c[i]) * fx;
        top + (bottom - top) * fy
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Command;

    #[test]
    fn renders_the_source_with_coloured_directive_lines() {
        let dir = std::env::temp_dir().join(format!("accsim-gui-shot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("loop.c");
        std::fs::write(
            &path,
            "int main(void) {\n#pragma acc parallel loop\n  for (;;) ;\n}\n",
        )
        .unwrap();
        let mut app = App::with_samples_dir(None);
        app.apply(Command::Open(path));
        // The window's size: the source panel shares it with the device and detail panels.
        let image = render(&app, 1024, 720);
        assert_eq!((image.width, image.height), (1024, 720));
        // The directive colour (orange: red well above blue) appears; plain text is grey.
        let orange = image
            .pixels
            .iter()
            .filter(|c| c.r() > 150 && c.b() < 100 && c.r() > c.b() + 100)
            .count();
        assert!(orange > 20, "directive text drawn ({orange} orange pixels)");
        // Something other than the background was drawn across the window.
        let distinct: std::collections::HashSet<_> = image.pixels.iter().collect();
        assert!(distinct.len() > 10);
        let out = dir.join("shot.png");
        image.save_png(&out).unwrap();
        assert!(std::fs::metadata(&out).unwrap().len() > 100);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
