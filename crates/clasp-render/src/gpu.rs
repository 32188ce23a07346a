//! The device and the draw: a world's meshes uploaded once, each render placing its bodies,
//! lighting them as the app does and drawing them into the targets.

use std::{collections::HashMap, sync::Mutex};

use bytemuck::Zeroable;
use clasp_core::{BodyId, World};
use nalgebra::{Matrix4, Vector3};
use wgpu::util::DeviceExt;

use crate::{
    camera::{Camera, MAX_SIZE, world_box},
    error::RenderError,
    images::Images,
    pipeline::{PartUniform, Vertex, ViewUniform, pipeline},
    targets::{NO_BODY, Targets},
};

/// The app's background (its clear colour, sRGB 0.13 0.14 0.17, as linear values).
const BACKGROUND: [f32; 3] = [0.0152, 0.0176, 0.0242];

/// The app's lights: a key from the front left and above, a fill from behind (where each
/// stands, seen from the origin, as the app places them), their strengths, and the ambient
/// share every surface gets.
const KEY: ([f64; 3], f32) = ([-0.5, -1.0, 1.4], 0.75);
const FILL: ([f64; 3], f32) = ([0.8, 1.0, 0.5], 0.25);
const AMBIENT: f32 = 0.3;

/// A mesh on the GPU: its vertices and its triangles' corners, shared by the bodies that
/// share the mesh.
#[derive(Clone)]
struct GpuMesh {
    vertices: std::sync::Arc<wgpu::Buffer>,
    indices: std::sync::Arc<wgpu::Buffer>,
    corners: u32,
}

/// The GPU and what every render shares.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::RenderPipeline,
    view_layout: wgpu::BindGroupLayout,
    part_layout: wgpu::BindGroupLayout,
    /// Bytes between two bodies' uniforms (the device's offset alignment).
    part_stride: u64,
    adapter: String,
    /// The last size's targets, kept for the next render of that size.
    targets: Mutex<Option<Targets>>,
}

/// A world's meshes on the GPU, in the order of the world's `body_ids()` when it was made.
pub struct Scene {
    bodies: Vec<BodyId>,
    /// Per body, its mesh (bodies sharing a mesh share its buffers).
    meshes: Vec<GpuMesh>,
    parts: wgpu::Buffer,
    parts_group: wgpu::BindGroup,
}

impl Scene {
    pub fn bodies(&self) -> &[BodyId] {
        &self.bodies
    }
}

/// The environment variable that turns off Mesa's Vulkan device-select layer.
pub const DEVICE_SELECT_OFF: &str = "NODEVICE_SELECT";

/// Whether a headless run should turn off Mesa's Vulkan device-select layer (by setting
/// [`DEVICE_SELECT_OFF`] to 1 before anything opens Vulkan) to keep stderr for the user's work.
/// Where no Wayland session is (`XDG_RUNTIME_DIR` unset or not a folder) the layer still asks
/// for one, and libwayland prints "error: XDG_RUNTIME_DIR is invalid or not set in the
/// environment." twice: a failure to anyone reading a dataset job's log. The layer only
/// reorders the adapters, and [`Renderer::new`] chooses its own (a GPU before a software one).
/// A user's own setting of the variable is left alone.
pub fn quiet_device_select() -> bool {
    let runtime_dir = std::env::var_os("XDG_RUNTIME_DIR");
    let session = runtime_dir.is_some_and(|d| std::path::Path::new(&d).is_dir());
    !session && std::env::var_os(DEVICE_SELECT_OFF).is_none()
}

impl Renderer {
    /// Opens the best adapter there is (a GPU before a software one) without a window.
    pub fn new() -> Result<Self, RenderError> {
        pollster::block_on(Self::open())
    }

    async fn open() -> Result<Self, RenderError> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if std::env::var_os("WGPU_BACKEND").is_none() {
            descriptor.backends = wgpu::Backends::VULKAN | wgpu::Backends::GL;
        }
        let instance = wgpu::Instance::new(descriptor);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: None,
            })
            .await
            .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("clasp-render"),
                required_limits: wgpu::Limits {
                    max_texture_dimension_2d: MAX_SIZE
                        .min(adapter.limits().max_texture_dimension_2d),
                    ..wgpu::Limits::downlevel_defaults()
                },
                ..Default::default()
            })
            .await
            .map_err(|e| RenderError::Device(e.to_string()))?;
        let part_stride = (std::mem::size_of::<PartUniform>() as u64)
            .next_multiple_of(device.limits().min_uniform_buffer_offset_alignment as u64);
        let (view_layout, part_layout, pipeline) = pipeline(&device);
        Ok(Self {
            device,
            queue,
            pipeline,
            view_layout,
            part_layout,
            part_stride,
            adapter: format!("{} ({:?}, {:?})", info.name, info.device_type, info.backend),
            targets: Mutex::new(None),
        })
    }

    /// The adapter's name, kind and backend, for reports.
    pub fn adapter(&self) -> &str {
        &self.adapter
    }

    /// Uploads the world's meshes.
    pub fn scene(&self, world: &World) -> Result<Scene, RenderError> {
        let bodies = world.body_ids();
        // Clones share their meshes: each is uploaded once.
        let mut uploaded: HashMap<*const clasp_core::TriMesh, GpuMesh> = HashMap::new();
        let mut meshes = Vec::with_capacity(bodies.len());
        for &id in &bodies {
            let body = world.body(id).ok_or(RenderError::NoSuchBody(id))?;
            let shown = body.shown_mesh();
            let mesh = uploaded
                .entry(shown as *const _)
                .or_insert_with(|| self.upload(shown))
                .clone();
            meshes.push(mesh);
        }
        let parts = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("parts"),
            size: (self.part_stride * bodies.len().max(1) as u64),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let parts_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("parts"),
            layout: &self.part_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &parts,
                    offset: 0,
                    size: wgpu::BufferSize::new(std::mem::size_of::<PartUniform>() as u64),
                }),
            }],
        });
        Ok(Scene {
            bodies,
            meshes,
            parts,
            parts_group,
        })
    }

    /// A mesh's vertices (body frame) and triangles. No normals: the fragment shader takes
    /// each face's own from the surface's slope, so a flat-shaded mesh needs no copy of a
    /// vertex per face.
    fn upload(&self, mesh: &clasp_core::TriMesh) -> GpuMesh {
        let mut vertices: Vec<Vertex> = mesh
            .vertices()
            .iter()
            .map(|p| Vertex {
                position: [p.x as f32, p.y as f32, p.z as f32],
            })
            .collect();
        let mut indices: Vec<u32> = mesh.triangles().iter().flatten().copied().collect();
        // A buffer may not be empty: an empty mesh draws one degenerate triangle.
        if indices.is_empty() {
            vertices.push(Vertex::zeroed());
            indices = vec![0; 3];
        }
        let buffer = |contents: &[u8], usage| {
            std::sync::Arc::new(
                self.device
                    .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("mesh"),
                        contents,
                        usage,
                    }),
            )
        };
        GpuMesh {
            vertices: buffer(bytemuck::cast_slice(&vertices), wgpu::BufferUsages::VERTEX),
            indices: buffer(bytemuck::cast_slice(&indices), wgpu::BufferUsages::INDEX),
            corners: indices.len() as u32,
        }
    }

    /// Uploads the world's meshes and renders it once.
    pub fn render_world(&self, world: &World, camera: &Camera) -> Result<Images, RenderError> {
        self.render(&self.scene(world)?, world, camera)
    }

    /// Renders `world` (the world `scene` was made from, its bodies wherever they stand now).
    /// Refused for a bad camera, a camera inside a body, or a world whose bodies changed.
    pub fn render(
        &self,
        scene: &Scene,
        world: &World,
        camera: &Camera,
    ) -> Result<Images, RenderError> {
        let held = self.draw_world(scene, world, camera, true)?;
        let targets = held
            .as_ref()
            .ok_or(RenderError::Readback("no targets".into()))?;
        let (rgb, depth, segmentation) = targets.read(&self.device)?;
        Ok(Images {
            camera: *camera,
            rgb,
            depth,
            segmentation,
            bodies: scene.bodies.clone(),
        })
    }

    /// Draws `world` as [`Renderer::render`] does and waits for the GPU, reading nothing
    /// back: what a frame of a window costs the GPU, for timing it.
    pub fn draw_only(
        &self,
        scene: &Scene,
        world: &World,
        camera: &Camera,
    ) -> Result<(), RenderError> {
        drop(self.draw_world(scene, world, camera, false)?);
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        Ok(())
    }

    /// Checks the camera, places the bodies and submits the draw (with the copies out when
    /// `read_back`); gives the targets, held.
    fn draw_world(
        &self,
        scene: &Scene,
        world: &World,
        camera: &Camera,
        read_back: bool,
    ) -> Result<std::sync::MutexGuard<'_, Option<Targets>>, RenderError> {
        camera.check()?;
        if world.body_ids() != scene.bodies {
            return Err(RenderError::StaleScene);
        }
        check_outside(world, &scene.bodies, camera)?;
        let mut parts = vec![0u8; scene.parts.size() as usize];
        for (index, &id) in scene.bodies.iter().enumerate() {
            let body = world.body(id).ok_or(RenderError::NoSuchBody(id))?;
            let [r, g, b] = body.display_color();
            let part = PartUniform {
                body_to_world: matrix(&body.pose().to_homogeneous()),
                color: [r, g, b, AMBIENT],
                index: [index as u32, 0, 0, 0],
            };
            let at = index * self.part_stride as usize;
            parts[at..at + std::mem::size_of::<PartUniform>()]
                .copy_from_slice(bytemuck::bytes_of(&part));
        }
        self.queue.write_buffer(&scene.parts, 0, &parts);
        let mut held = self
            .targets
            .lock()
            .map_err(|_| RenderError::Readback("a render panicked".into()))?;
        let size = (camera.width, camera.height);
        if held.as_ref().is_none_or(|t| t.size != size) {
            *held = Some(Targets::new(&self.device, size));
        }
        let targets = held
            .as_ref()
            .ok_or(RenderError::Readback("no targets".into()))?;
        let view = self.view_group(world, camera);
        self.draw(scene, targets, &view, read_back);
        Ok(held)
    }

    fn view_group(&self, world: &World, camera: &Camera) -> wgpu::BindGroup {
        let k = camera.intrinsics();
        let (near, far) = depth_range(world, camera);
        let view = ViewUniform {
            world_to_camera: matrix(&camera.pose.inverse().to_homogeneous()),
            intrinsics: [k.fx as f32, k.fy as f32, k.cx as f32, k.cy as f32],
            frame: [camera.width as f32, camera.height as f32, near, far],
            key: towards(KEY),
            fill: towards(FILL),
            eye: {
                let eye = camera.eye().map(|x| x as f32);
                [eye.x, eye.y, eye.z, 1.0]
            },
        };
        let buffer = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("view"),
                contents: bytemuck::bytes_of(&view),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("view"),
            layout: &self.view_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
        })
    }

    fn draw(&self, scene: &Scene, targets: &Targets, view: &wgpu::BindGroup, read_back: bool) {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("render"),
            });
        {
            let clear = |color: wgpu::Color, view| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(color),
                        store: wgpu::StoreOp::Store,
                    },
                })
            };
            let background = wgpu::Color {
                r: BACKGROUND[0] as f64,
                g: BACKGROUND[1] as f64,
                b: BACKGROUND[2] as f64,
                a: 1.0,
            };
            let far = wgpu::Color {
                r: f64::INFINITY,
                g: 0.0,
                b: 0.0,
                a: 0.0,
            };
            let none = wgpu::Color {
                r: NO_BODY as f64,
                g: 0.0,
                b: 0.0,
                a: 0.0,
            };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("bodies"),
                color_attachments: &[
                    clear(background, &targets.color.1),
                    clear(far, &targets.depth.1),
                    clear(none, &targets.index.1),
                ],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &targets.z,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, view, &[]);
            for (index, mesh) in scene.meshes.iter().enumerate() {
                let offset = (index as u64 * self.part_stride) as u32;
                pass.set_bind_group(1, &scene.parts_group, &[offset]);
                pass.set_vertex_buffer(0, mesh.vertices.slice(..));
                pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..mesh.corners, 0, 0..1);
            }
        }
        if read_back {
            targets.copy_out(&mut encoder);
        }
        self.queue.submit([encoder.finish()]);
    }
}

/// A body that holds the eye would fill the view with its inside: refused, naming it.
fn check_outside(world: &World, bodies: &[BodyId], camera: &Camera) -> Result<(), RenderError> {
    let eye = camera.eye();
    for &id in bodies {
        let Some(body) = world.body(id) else { continue };
        if body.geometry().contains(&(body.pose().inverse() * eye)) {
            return Err(RenderError::CameraInside(body.name.clone()));
        }
    }
    Ok(())
}

/// The near and far planes: round the world's box as the camera sees it, so the depth
/// buffer's precision goes where the bodies are.
fn depth_range(world: &World, camera: &Camera) -> (f32, f32) {
    let Some((low, high)) = world_box(world) else {
        return (1.0, 10.0);
    };
    let centre = nalgebra::Point3::from((low.coords + high.coords) / 2.0);
    let radius = (high - low).norm() / 2.0;
    let ahead = (camera.pose.inverse() * centre).z;
    let far = (ahead + radius).max(2.0) * 1.01;
    let near = (ahead - radius).max(far * 1e-5).max(0.01);
    (near as f32, far as f32)
}

/// A light's unit direction towards it, with its strength.
fn towards((at, strength): ([f64; 3], f32)) -> [f32; 4] {
    let d = Vector3::from(at).normalize();
    [d.x as f32, d.y as f32, d.z as f32, strength]
}

fn matrix(m: &Matrix4<f64>) -> [f32; 16] {
    let mut out = [0.0; 16];
    for (o, x) in out.iter_mut().zip(m.iter()) {
        *o = *x as f32;
    }
    out
}
