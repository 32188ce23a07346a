//! GraspIt's mug dropped on a table from random poses: every drop ends at rest, nothing
//! interpenetrates (the brute-force judge), no number goes bad. Needs GraspIt's model library.

use clasp_collide::shapes;
use clasp_core::{Body, BodyId, BodyKind, Pose, World};
use clasp_io::{
    Disk,
    fixtures::{graspit_models, interpenetrating},
    load_body,
};
use clasp_random::SplitMix64;
use nalgebra::{Translation3, UnitQuaternion, Vector3};
use rayon::prelude::*;

/// Drops tried.
const DROPS: usize = 50;

/// How a drop ended: the mug's speed and the pairs that interpenetrate.
type Ending = (f64, Vec<(String, String)>);

/// How each drop ends after `seconds`: the mug's speed (mm/s, or 50 mm times its turning
/// rate, whichever is larger) and the pairs that interpenetrate; an error for a step refused.
fn drop_mugs(seconds: f64) -> Option<Vec<Result<Ending, String>>> {
    let models = graspit_models()?;
    let mug = load_body(&Disk, &models.join("objects/mug.xml"), BodyKind::Graspable).unwrap();
    let table = Body::from_mesh(
        "table",
        BodyKind::Obstacle,
        shapes::cuboid([-300.0, -300.0, -20.0], [300.0, 300.0, 0.0]),
    );
    let mut random = SplitMix64::new(2026);
    let turns: Vec<UnitQuaternion<f64>> = (0..DROPS)
        .map(|_| {
            let mut coordinate = || random.range(-1.0, 1.0);
            let axis = Vector3::new(coordinate(), coordinate(), coordinate());
            UnitQuaternion::from_scaled_axis(
                axis.normalize() * random.range(0.0, std::f64::consts::PI),
            )
        })
        .collect();
    let ends = turns
        .par_iter()
        .map(|turn| {
            // The mug turned, its lowest point 5 mm above the table's top.
            let turned = mug
                .clone()
                .at(Pose::from_parts(Translation3::identity(), *turn));
            let (lo, _) = clasp_core::bounding_box([&turned]).unwrap();
            let start = Pose::from_parts(Translation3::new(0.0, 0.0, 5.0 - lo.z), *turn);
            let mut world = World::new(vec![table.clone(), mug.clone().at(start)], vec![]);
            world.simulate(seconds).map_err(|e| e.to_string())?;
            let v = world.body(BodyId::Free(1)).unwrap().velocity();
            if !v.is_finite() {
                return Err("a velocity went bad".into());
            }
            Ok((
                v.linear.norm().max(v.angular.norm() * 50.0),
                interpenetrating(&world),
            ))
        })
        .collect();
    Some(ends)
}

#[test]
fn graspits_mug_dropped_from_random_poses_never_passes_into_the_table() {
    let Some(ends) = drop_mugs(1.0) else {
        return;
    };
    for (k, end) in ends.into_iter().enumerate() {
        let (_, overlaps) = end.unwrap_or_else(|e| panic!("drop {k}: {e}"));
        assert!(overlaps.is_empty(), "drop {k}: {overlaps:?}");
    }
}

#[test]
#[ignore = "issue 28's target, not met yet: after 3 s, 24 of 50 drops still roll or rock at 1 mm/s or more, 2 of them off the 600 mm table (docs/architecture.md)"]
fn graspits_mug_dropped_from_random_poses_comes_to_rest() {
    let Some(ends) = drop_mugs(3.0) else {
        return;
    };
    let moving: Vec<String> = ends
        .into_iter()
        .enumerate()
        .filter_map(|(k, end)| {
            let (speed, overlaps) = end.unwrap_or_else(|e| panic!("drop {k}: {e}"));
            assert!(overlaps.is_empty(), "drop {k}: {overlaps:?}");
            (speed >= 1.0).then(|| format!("drop {k}: {speed:.1} mm/s"))
        })
        .collect();
    assert!(moving.is_empty(), "{} still move: {moving:?}", moving.len());
}
