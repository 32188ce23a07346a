//! The render pipeline and what it reads, laid out as `shader.wgsl` declares it: the view's
//! and each body's uniforms, the vertices, and the bind group layouts that hold them.

use bytemuck::{Pod, Zeroable};

use crate::targets::{COLOR_FORMAT, DEPTH_FORMAT, INDEX_FORMAT, Z_FORMAT};

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(crate) struct ViewUniform {
    pub(crate) world_to_camera: [f32; 16],
    pub(crate) intrinsics: [f32; 4],
    pub(crate) frame: [f32; 4],
    pub(crate) key: [f32; 4],
    pub(crate) fill: [f32; 4],
    /// The eye, world mm (w unused).
    pub(crate) eye: [f32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(crate) struct PartUniform {
    pub(crate) body_to_world: [f32; 16],
    pub(crate) color: [f32; 4],
    pub(crate) index: [u32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(crate) struct Vertex {
    pub(crate) position: [f32; 3],
}

/// The bind group layouts and the pipeline.
pub(crate) fn pipeline(
    device: &wgpu::Device,
) -> (
    wgpu::BindGroupLayout,
    wgpu::BindGroupLayout,
    wgpu::RenderPipeline,
) {
    let uniform = |dynamic| wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: None,
        },
        count: None,
    };
    let view_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("view"),
        entries: &[uniform(false)],
    });
    let part_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("part"),
        entries: &[uniform(true)],
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("clasp-render"),
        bind_group_layouts: &[Some(&view_layout), Some(&part_layout)],
        immediate_size: 0,
    });
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("clasp-render"),
        source: wgpu::ShaderSource::Wgsl(include_str!("shader.wgsl").into()),
    });
    let target = |format| {
        Some(wgpu::ColorTargetState {
            format,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        })
    };
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("clasp-render"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vertex"),
            compilation_options: Default::default(),
            buffers: &[wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<Vertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Float32x3],
            }],
        },
        primitive: wgpu::PrimitiveState {
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: Z_FORMAT,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some("fragment"),
            compilation_options: Default::default(),
            targets: &[
                target(COLOR_FORMAT),
                target(DEPTH_FORMAT),
                target(INDEX_FORMAT),
            ],
        }),
        multiview_mask: None,
        cache: None,
    });
    (view_layout, part_layout, pipeline)
}
