//! The headless renderer on the default scene, checked against the geometry: each body's
//! pixels where its projection says, the depth at the mug's nearest pixel equal to the
//! camera's distance to the mug's nearest point, every mask index naming the body whose
//! surface lies at that pixel's depth, the same bytes twice, and bad cameras refused.

use clasp_collide::{CollisionEngine, FastEngine, Placed};
use clasp_core::{BodyId, World};
use clasp_render::{Camera, CloudFrame, Images, RenderError, Renderer};
use nalgebra::{Point3, Vector3};

const SIZE: (u32, u32) = (320, 240);
const MUG: BodyId = BodyId::Free(0);

fn renderer() -> Renderer {
    Renderer::new().expect("a Vulkan adapter (CI installs Mesa's lavapipe)")
}

fn scene() -> World {
    clasp_io::default_world().unwrap()
}

/// Looking at the mug from +x: the hand stands behind it, at −x.
fn mug_camera(world: &World) -> Camera {
    Camera::framing(world, MUG, Vector3::new(1.0, -0.3, 0.4), 0.8, SIZE).unwrap()
}

fn pixel_of(camera: &Camera, p: &Point3<f64>) -> (f64, f64, f64) {
    let k = camera.intrinsics();
    let seen = camera.pose.inverse() * p;
    (
        k.fx * seen.x / seen.z + k.cx,
        k.fy * seen.y / seen.z + k.cy,
        seen.z,
    )
}

fn at(images: &Images, column: u32, row: u32) -> usize {
    (row * images.width() + column) as usize
}

#[test]
fn each_bodys_pixels_lie_within_its_projection() {
    let world = scene();
    let camera = mug_camera(&world);
    let images = renderer().render_world(&world, &camera).unwrap();
    println!("adapter: {}", renderer().adapter());
    assert_eq!(images.rgb.len(), 320 * 240 * 3);
    for (index, &id) in images.bodies.iter().enumerate() {
        let body = world.body(id).unwrap();
        let corners: Vec<_> = body
            .mesh()
            .vertices()
            .iter()
            .map(|v| pixel_of(&camera, &(body.pose() * v)))
            .collect();
        let low = corners
            .iter()
            .fold((f64::MAX, f64::MAX), |l, c| (l.0.min(c.0), l.1.min(c.1)));
        let high = corners
            .iter()
            .fold((f64::MIN, f64::MIN), |h, c| (h.0.max(c.0), h.1.max(c.1)));
        for row in 0..images.height() {
            for column in 0..images.width() {
                if images.segmentation[at(&images, column, row)] != index as i32 {
                    continue;
                }
                let (u, v) = (column as f64 + 0.5, row as f64 + 0.5);
                assert!(
                    u > low.0 - 1.0 && u < high.0 + 1.0 && v > low.1 - 1.0 && v < high.1 + 1.0,
                    "{} seen at ({column}, {row}), outside its projection {low:?}–{high:?}",
                    body.name
                );
            }
        }
    }
    let seen = |id| {
        let index = images.bodies.iter().position(|&b| b == id).unwrap() as i32;
        images.segmentation.iter().filter(|&&s| s == index).count()
    };
    let palm = BodyId::Palm {
        robot: clasp_core::RobotId::from_index(0),
    };
    assert!(
        seen(MUG) > 5000,
        "the mug fills much of the view: {} pixels",
        seen(MUG)
    );
    assert!(seen(palm) > 0, "the hand shows behind the mug");
    // The mug's centre projects onto the mug.
    let mug = world.body(MUG).unwrap();
    let (u, v, _) = pixel_of(&camera, &mug.world_cog());
    let index = images.segmentation[at(&images, u as u32, v as u32)];
    assert_eq!(images.bodies[index as usize], MUG);
}

#[test]
fn the_mugs_nearest_pixel_is_as_far_as_its_nearest_point() {
    let world = scene();
    let camera = mug_camera(&world);
    let images = renderer().render_world(&world, &camera).unwrap();
    let mug = world.body(MUG).unwrap();
    // Depth along the view axis is linear over a triangle: the nearest point is a vertex.
    let nearest = mug
        .mesh()
        .vertices()
        .iter()
        .map(|v| pixel_of(&camera, &(mug.pose() * v)).2)
        .fold(f64::MAX, f64::min);
    let index = images.bodies.iter().position(|&b| b == MUG).unwrap() as i32;
    let seen = images
        .depth
        .iter()
        .zip(&images.segmentation)
        .filter(|(_, s)| **s == index)
        .map(|(d, _)| *d as f64)
        .fold(f64::MAX, f64::min);
    println!("nearest point {nearest:.3} mm, nearest pixel {seen:.3} mm");
    assert!((seen - nearest).abs() < 1.0, "{seen} against {nearest}");
    // Nothing seen is infinitely far; the background is.
    for (d, s) in images.depth.iter().zip(&images.segmentation) {
        assert_eq!(d.is_finite(), *s >= 0);
    }
}

#[test]
fn every_mask_index_names_the_body_at_that_depth() {
    let world = scene();
    let camera = mug_camera(&world);
    let images = renderer().render_world(&world, &camera).unwrap();
    let cloud = images.point_cloud(CloudFrame::World);
    assert!(cloud.points.len() > 5000);
    let mut checked = 0;
    for (point, index) in cloud.points.iter().zip(&cloud.segmentation).step_by(11) {
        let body = world.body(images.bodies[*index as usize]).unwrap();
        let placed = Placed::new(body.geometry(), body.pose());
        let off = FastEngine.point_distance(placed, point).distance;
        assert!(off < 1.0, "a point of {} lies {off} mm off it", body.name);
        checked += 1;
    }
    println!("{checked} points within 1 mm of the body their pixel names");
    // The camera frame's cloud is the same points, seen from the camera.
    let local = images.point_cloud(CloudFrame::Camera);
    let back = camera.pose * local.points[100];
    assert!((back - cloud.points[100]).norm() < 1e-9);
}

#[test]
fn the_same_render_twice_gives_the_same_bytes() {
    let world = scene();
    let renderer = renderer();
    let scene = renderer.scene(&world).unwrap();
    let camera = Camera::default_for(&world, clasp_render::DEFAULT_FOV_Y, SIZE).unwrap();
    let first = renderer.render(&scene, &world, &camera).unwrap();
    let second = renderer.render(&scene, &world, &camera).unwrap();
    assert_eq!(first.rgb, second.rgb);
    assert_eq!(
        first.depth.iter().map(|d| d.to_bits()).collect::<Vec<_>>(),
        second.depth.iter().map(|d| d.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(first.segmentation, second.segmentation);
    // A body moved since: the scene draws it where it stands now.
    let mut moved = world.clone();
    let pose = moved.body(MUG).unwrap().pose();
    let away = nalgebra::Translation3::new(0.0, 0.0, 500.0) * pose;
    moved.set_pose(clasp_core::Element::Body(0), away).unwrap();
    let after = renderer.render(&scene, &moved, &camera).unwrap();
    assert_ne!(after.segmentation, first.segmentation);
}

#[test]
fn bad_cameras_are_refused() {
    let world = scene();
    let renderer = renderer();
    let good = mug_camera(&world);
    for (width, height) in [(0, 240), (320, 0), (16385, 240), (320, 20000)] {
        let camera = Camera {
            width,
            height,
            ..good
        };
        let refused = renderer.render_world(&world, &camera);
        assert!(
            matches!(refused, Err(RenderError::BadSize(_))),
            "{width}×{height}: {refused:?}"
        );
    }
    let mut nan = good;
    nan.pose.translation.vector.x = f64::NAN;
    let refused = renderer.render_world(&world, &nan);
    assert!(
        matches!(refused, Err(RenderError::BadCamera(_))),
        "{refused:?}"
    );
    // In the mug's wall: its own centre of gravity lies in its handle-less body? Use a point
    // found inside it.
    let mug = world.body(MUG).unwrap();
    let inside = mug
        .mesh()
        .vertices()
        .iter()
        .map(|v| mug.pose() * v)
        .flat_map(|p| {
            let centre = mug.world_cog();
            (1..20).map(move |k| p + (centre - p) * (k as f64 / 200.0))
        })
        .find(|p| mug.geometry().contains(&(mug.pose().inverse() * p)))
        .expect("a point inside the mug's wall");
    let camera = Camera::looking_at(inside, mug.world_cog(), Vector3::z(), 0.8, SIZE).unwrap();
    let refused = renderer.render_world(&world, &camera);
    assert!(
        matches!(&refused, Err(RenderError::CameraInside(name)) if name == "clasp_mug"),
        "{refused:?}"
    );
    let message = refused.unwrap_err().to_string();
    assert!(message.contains("inside clasp_mug"), "{message}");
}
