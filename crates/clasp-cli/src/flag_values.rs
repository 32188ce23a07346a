//! Flag values clap cannot read by itself: an image size, a list of numbers, the annealing's
//! parameters, a grasp wrench space.

use clasp_core::WrenchSpaceKind;

pub(crate) fn parse_wrench_space(text: &str) -> Result<WrenchSpaceKind, String> {
    text.parse()
}

/// `640x480` as (640, 480).
pub(crate) fn picture_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("expected WxH, e.g. 640x480, not {text:?}"))?;
    let side = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("{s:?} is not a whole number of pixels"))
    };
    Ok((side(w)?, side(h)?))
}

/// Annealing parameters as NAME=VALUE pairs separated by commas, over GraspIt's defaults.
pub(crate) fn annealing(text: &str) -> Result<clasp_core::Annealing, String> {
    let mut annealing = clasp_core::Annealing::default();
    for pair in text.split(',') {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("expected NAME=VALUE, not {pair:?}"))?;
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| format!("{value:?} is not a number"))?;
        annealing.set(name.trim(), value)?;
    }
    Ok(annealing)
}

/// N numbers separated by commas.
pub(crate) fn numbers<const N: usize>(text: &str) -> Result<[f64; N], String> {
    let values: Vec<f64> = text
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<f64>()
                .map_err(|_| format!("{s:?} is not a number"))
        })
        .collect::<Result<_, _>>()?;
    if values.iter().any(|v| !v.is_finite()) {
        return Err(format!("{text:?}: every number must be finite"));
    }
    values
        .try_into()
        .map_err(|v: Vec<f64>| format!("expected {N} numbers separated by commas, got {}", v.len()))
}
