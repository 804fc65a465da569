//! An area model fitted to a sweep (`--model`, docs/report.md §8.5): the synthesized
//! LUTs as a linear combination of terms such as `T*K*CW + T*K + log2(D) + 1`, fitted
//! per family by least squares on the relative error (each configuration weighs the
//! same, whether it has 300 LUTs or 30,000), with its largest and mean relative
//! error over the configurations that succeeded.
use anyhow::{bail, Result};
use serde::Serialize;
use std::fmt::Write;

use super::least_squares::least_squares;
use super::record::{Record, Status};
use crate::report::family::Family;

/// A factor of a term.
#[derive(Clone, Debug, PartialEq)]
enum Factor {
    /// A parameter's value.
    Parameter(String),
    /// Its base-2 logarithm.
    Log2(String),
    /// 1 where the parameter compares so with the number, else 0 (`[D=2]`: the trace
    /// queue in flip-flops, not block RAM).
    Test(String, Comparison, f64),
}

/// The comparison of a [`Factor::Test`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Comparison {
    Equal,
    Below,
    AtMost,
    Above,
    AtLeast,
}

impl Comparison {
    fn holds(self, left: f64, right: f64) -> bool {
        match self {
            Comparison::Equal => left == right,
            Comparison::Below => left < right,
            Comparison::AtMost => left <= right,
            Comparison::Above => left > right,
            Comparison::AtLeast => left >= right,
        }
    }
}

/// A parameter name: letters, digits and `_`, not starting with a digit.
fn is_name(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with(|c: char| c.is_ascii_digit())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `[D=2]`, `[D<=16]`, ...: the test, if `inner` (between the brackets) is one.
fn test(inner: &str) -> Option<Factor> {
    let comparisons = [
        ("<=", Comparison::AtMost),
        (">=", Comparison::AtLeast),
        ("=", Comparison::Equal),
        ("<", Comparison::Below),
        (">", Comparison::Above),
    ];
    comparisons.iter().find_map(|&(symbol, comparison)| {
        let (name, value) = inner.split_once(symbol)?;
        let value = value.trim().parse::<f64>().ok()?;
        is_name(name.trim()).then(|| Factor::Test(name.trim().to_string(), comparison, value))
    })
}

/// The model's terms, each a product of factors (none: the constant 1), and each
/// term as written.
#[derive(Clone, Debug)]
pub struct Model {
    terms: Vec<Vec<Factor>>,
    texts: Vec<String>,
}

impl Model {
    /// Read `T*K*CW + T*K + log2(D) + [D=2]*K*CW + 1`.
    pub fn parse(text: &str) -> Result<Self> {
        let (mut terms, mut texts) = (Vec::new(), Vec::new());
        for term in text.split('+').map(str::trim) {
            let mut factors = Vec::new();
            for factor in term.split('*').map(str::trim) {
                let log2 = factor.strip_prefix("log2(").and_then(|rest| rest.strip_suffix(')'));
                let bracket = factor.strip_prefix('[').and_then(|rest| rest.strip_suffix(']'));
                match (log2, bracket) {
                    (Some(inner), _) if is_name(inner) => factors.push(Factor::Log2(inner.to_string())),
                    (_, Some(inner)) if test(inner).is_some() => factors.extend(test(inner)),
                    _ if factor == "1" => {}
                    _ if is_name(factor) => factors.push(Factor::Parameter(factor.to_string())),
                    _ => bail!(
                        "--model {text}: '{factor}' is not a parameter name, log2(NAME), a test [NAME=v] (or <, <=, \
                         >, >=) or 1; write terms as T*K*CW + T*K + log2(D) + [D=2]*K*CW + 1"
                    ),
                }
            }
            terms.push(factors);
            texts.push(term.to_string());
        }
        Ok(Model { terms, texts })
    }

    /// Refuse a model that names a parameter not in `parameters` (checked before a
    /// sweep runs, not after).
    pub fn check(&self, parameters: &[String]) -> Result<()> {
        for factor in self.terms.iter().flatten() {
            let (Factor::Parameter(name) | Factor::Log2(name) | Factor::Test(name, _, _)) = factor;
            if !parameters.contains(name) {
                bail!("--model: {name} is not a parameter of this sweep (its parameters: {})", parameters.join(", "));
            }
        }
        Ok(())
    }

    /// Each term as written.
    pub fn term_texts(&self) -> Vec<String> {
        self.texts.clone()
    }

    /// The terms' values for `record`, or the parameter it lacks.
    fn row(&self, record: &Record) -> Result<Vec<f64>, String> {
        let value =
            |name: &str| record.parameters.get(name).and_then(|v| v.parse::<f64>().ok()).ok_or(name.to_string());
        self.terms
            .iter()
            .map(|factors| {
                factors.iter().try_fold(1.0, |product, factor| match factor {
                    Factor::Parameter(n) => Ok(product * value(n)?),
                    Factor::Log2(n) => Ok(product * value(n)?.log2()),
                    Factor::Test(n, comparison, v) => {
                        Ok(product * f64::from(u8::from(comparison.holds(value(n)?, *v))))
                    }
                })
            })
            .collect()
    }
}

/// The model fitted to one family.
#[derive(Clone, Debug, Serialize)]
pub struct FamilyFit {
    /// The family.
    pub family: Family,
    /// The figure modelled: the family's LUT primitive.
    pub figure: String,
    /// Each term with its coefficient.
    pub terms: Vec<(String, f64)>,
    /// Configurations fitted.
    pub points: usize,
    /// Largest |model - measured| / measured.
    pub max_relative_error: f64,
    /// Mean |model - measured| / measured.
    pub mean_relative_error: f64,
    /// The job where the error is largest.
    pub worst: String,
    /// Each configuration fitted: its job, the measured LUTs and the model's.
    pub fitted: Vec<(String, f64, f64)>,
}

/// Fit `model` to the LUTs of each family of `records` that succeeded.
pub fn fit_families(model: &Model, records: &[Record]) -> Result<Vec<FamilyFit>> {
    let mut families: Vec<Family> = records.iter().map(|r| r.family).collect();
    families.dedup();
    families.sort();
    families.dedup();
    let mut fits = Vec::new();
    for family in families {
        let here: Vec<&Record> =
            records.iter().filter(|r| r.family == family && r.status == Status::Ok && r.luts.is_some()).collect();
        let mut rows = Vec::new();
        for r in &here {
            let row = model.row(r).map_err(|name| {
                anyhow::anyhow!("--model: {name} is not a numeric parameter of {} (its parameters: {})", r.name, {
                    let names: Vec<&str> = r.parameters.keys().map(String::as_str).collect();
                    names.join(", ")
                })
            })?;
            rows.push(row);
        }
        if here.len() < model.terms.len() {
            bail!(
                "--model: {} configurations of the {} for {} terms: sweep more",
                here.len(),
                family.title(),
                model.terms.len()
            );
        }
        let measured: Vec<f64> = here.iter().map(|r| r.luts.unwrap_or(0) as f64).collect();
        let weighted: Vec<Vec<f64>> =
            rows.iter().zip(&measured).map(|(row, y)| row.iter().map(|x| x / y).collect()).collect();
        let Some(coefficients) = least_squares(&weighted) else {
            bail!(
                "--model: the terms are not independent on the {} configurations (a term is constant or a sum \
                 of others there)",
                family.title()
            );
        };
        let modelled: Vec<f64> =
            rows.iter().map(|row| row.iter().zip(&coefficients).map(|(x, c)| x * c).sum::<f64>()).collect();
        let errors: Vec<f64> = modelled.iter().zip(&measured).map(|(m, y)| (m - y).abs() / y).collect();
        let (worst, max) =
            errors.iter().enumerate().fold((0, 0.0), |best, (i, &e)| if e > best.1 { (i, e) } else { best });
        fits.push(FamilyFit {
            family,
            figure: family.figure_heads()[0].to_string(),
            terms: model.term_texts().into_iter().zip(coefficients).collect(),
            points: here.len(),
            max_relative_error: max,
            mean_relative_error: errors.iter().sum::<f64>() / errors.len() as f64,
            worst: here[worst].name.clone(),
            fitted: here
                .iter()
                .zip(measured.iter().zip(&modelled))
                .map(|(r, (&y, &m))| (r.name.clone(), y, m))
                .collect(),
        });
    }
    Ok(fits)
}

/// The formula of `fit`: `SB_LUT4 ≈ 12.41·T*K*CW + ...`.
pub fn formula(fit: &FamilyFit) -> String {
    let terms: Vec<String> = fit
        .terms
        .iter()
        .map(|(term, c)| if term == "1" { format!("{c:.1}") } else { format!("{c:.2}·{term}") })
        .collect();
    format!("{} ≈ {}", fit.figure, terms.join(" + ").replace("+ -", "− "))
}

/// `model.md`: each family's formula and its errors.
pub fn markdown(model: &Model, fits: &[FamilyFit]) -> String {
    let mut md = format!(
        "# Area model: LUTs = {}\n\nFitted per family by least squares on the relative error over the jobs that \
         succeeded (pmugen sweep --model).\n\n| family | model | configurations | max relative error | mean relative \
         error | worst fitted |\n|---|---|---:|---:|---:|---|\n",
        model.term_texts().join(" + ")
    );
    for fit in fits {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.1} % | {:.1} % | {} |",
            fit.family.title(),
            formula(fit),
            fit.points,
            fit.max_relative_error * 100.0,
            fit.mean_relative_error * 100.0,
            fit.worst
        );
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_read_and_bad_ones_refused() {
        let model = Model::parse("T*K*CW + T + log2(D) + [D<=16]*K + 1").unwrap();
        assert_eq!(model.term_texts(), ["T*K*CW", "T", "log2(D)", "[D<=16]*K", "1"]);
        assert_eq!(model.terms[3], [Factor::Test("D".into(), Comparison::AtMost, 16.0), Factor::Parameter("K".into())]);
        let error = Model::parse("T + 2x").unwrap_err().to_string();
        assert!(error.contains("'2x' is not a parameter name"), "{error}");
    }
}
