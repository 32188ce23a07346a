// Clasp's headless look: the app's body colours under its two lights and an ambient, with
// the depth along the view axis and the body's index written beside the colour.

struct View {
    // World to camera (OpenCV axes: x right, y down, z forward), millimetres.
    world_to_camera: mat4x4<f32>,
    // fx, fy, cx, cy in pixels.
    intrinsics: vec4<f32>,
    // width, height in pixels; near, far in millimetres.
    frame: vec4<f32>,
    // The lights' directions (towards the light, world axes), and their strengths in w.
    key: vec4<f32>,
    fill: vec4<f32>,
    // The eye, world millimetres.
    eye: vec4<f32>,
};

struct Part {
    body_to_world: mat4x4<f32>,
    // Linear RGB, and the ambient share in w.
    color: vec4<f32>,
    index: vec4<u32>,
};

@group(0) @binding(0) var<uniform> view: View;
@group(1) @binding(0) var<uniform> part: Part;

struct Corner {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) depth: f32,
};

@vertex
fn vertex(@location(0) position: vec3<f32>) -> Corner {
    let world = part.body_to_world * vec4<f32>(position, 1.0);
    let seen = view.world_to_camera * world;
    let z = seen.z;
    let near = view.frame.z;
    let far = view.frame.w;
    let u = view.intrinsics.x * seen.x + view.intrinsics.z * z;
    let v = view.intrinsics.y * seen.y + view.intrinsics.w * z;
    var out: Corner;
    // Pixel coordinates (times z) to clip space: x from 0..width to −1..1, y down to up.
    out.clip = vec4<f32>(
        2.0 * u / view.frame.x - z,
        z - 2.0 * v / view.frame.y,
        far * (z - near) / (far - near),
        z,
    );
    out.world = world.xyz;
    out.depth = z;
    return out;
}

struct Pixel {
    @location(0) color: vec4<f32>,
    @location(1) depth: f32,
    @location(2) index: u32,
};

@fragment
fn fragment(in: Corner) -> Pixel {
    // The face's own normal, from how the surface runs across the pixels (flat shading with
    // no normal per vertex); both faces lit: meshes from files do not all wind their
    // triangles the same way.
    var n = normalize(cross(dpdx(in.world), dpdy(in.world)));
    if dot(n, view.eye.xyz - in.world) < 0.0 {
        n = -n;
    }
    let light = part.color.w
        + view.key.w * max(dot(n, view.key.xyz), 0.0)
        + view.fill.w * max(dot(n, view.fill.xyz), 0.0);
    var out: Pixel;
    out.color = vec4<f32>(part.color.rgb * light, 1.0);
    out.depth = in.depth;
    out.index = part.index.x;
    return out;
}
