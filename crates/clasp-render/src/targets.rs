//! The render's targets: three colour textures (the look, the depth along the view axis, the
//! body index) and a depth buffer, with the buffers they are read back through row by row.

use crate::error::RenderError;

pub(crate) const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
pub(crate) const INDEX_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;
pub(crate) const Z_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The index written where no body is.
pub(crate) const NO_BODY: u32 = u32::MAX;

/// The render's textures and the buffers they are read back through.
pub(crate) struct Targets {
    pub(crate) size: (u32, u32),
    pub(crate) color: (wgpu::Texture, wgpu::TextureView, wgpu::Buffer),
    pub(crate) depth: (wgpu::Texture, wgpu::TextureView, wgpu::Buffer),
    pub(crate) index: (wgpu::Texture, wgpu::TextureView, wgpu::Buffer),
    pub(crate) z: wgpu::TextureView,
    /// Bytes per row in the read-back buffers (a multiple of 256, as copies need).
    row: u32,
}

impl Targets {
    pub(crate) fn new(device: &wgpu::Device, size: (u32, u32)) -> Self {
        let extent = wgpu::Extent3d {
            width: size.0,
            height: size.1,
            depth_or_array_layers: 1,
        };
        let row = (size.0 * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let target = |format, usage| {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("target"),
                size: extent,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            });
            let view = texture.create_view(&Default::default());
            (texture, view)
        };
        let read_back = |format| {
            let (texture, view) = target(
                format,
                wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            );
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("read back"),
                size: row as u64 * size.1 as u64,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            });
            (texture, view, buffer)
        };
        Self {
            size,
            color: read_back(COLOR_FORMAT),
            depth: read_back(DEPTH_FORMAT),
            index: read_back(INDEX_FORMAT),
            z: target(Z_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT).1,
            row,
        }
    }

    pub(crate) fn copy_out(&self, encoder: &mut wgpu::CommandEncoder) {
        let extent = wgpu::Extent3d {
            width: self.size.0,
            height: self.size.1,
            depth_or_array_layers: 1,
        };
        for (texture, _, buffer) in [&self.color, &self.depth, &self.index] {
            encoder.copy_texture_to_buffer(
                texture.as_image_copy(),
                wgpu::TexelCopyBufferInfo {
                    buffer,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(self.row),
                        rows_per_image: Some(self.size.1),
                    },
                },
                extent,
            );
        }
    }

    /// Waits for the render and reads the three images, dropping each row's padding.
    #[allow(clippy::type_complexity)]
    pub(crate) fn read(
        &self,
        device: &wgpu::Device,
    ) -> Result<(Vec<u8>, Vec<f32>, Vec<i32>), RenderError> {
        let buffers = [&self.color.2, &self.depth.2, &self.index.2];
        for buffer in buffers {
            buffer.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        let (width, height) = (self.size.0 as usize, self.size.1 as usize);
        let rows = |buffer: &wgpu::Buffer| -> Vec<u8> {
            let mapped = buffer.slice(..).get_mapped_range();
            let mut out = Vec::with_capacity(width * height * 4);
            for row in mapped.chunks(self.row as usize).take(height) {
                out.extend_from_slice(&row[..width * 4]);
            }
            out
        };
        let color = rows(&self.color.2);
        let depth = rows(&self.depth.2);
        let index = rows(&self.index.2);
        for buffer in buffers {
            buffer.unmap();
        }
        let rgb = color
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        let depth = bytemuck::pod_collect_to_vec::<u8, f32>(&depth);
        let segmentation = bytemuck::pod_collect_to_vec::<u8, u32>(&index)
            .into_iter()
            .map(|i| if i == NO_BODY { -1 } else { i as i32 })
            .collect();
        Ok((rgb, depth, segmentation))
    }
}
