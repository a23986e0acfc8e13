// Weka's supervised MDL discretisation (Fayyad & Irani) as an oracle for kgraph's tests:
// prints each numeric attribute's name and cut points (the class is the last attribute).
// java -cp weka.jar:. WekaCuts table.arff [better]   ("better": useBetterEncoding)
import weka.core.Instances;
import weka.core.converters.ConverterUtils.DataSource;
import weka.filters.Filter;
import weka.filters.supervised.attribute.Discretize;

public class WekaCuts {
  public static void main(String[] args) throws Exception {
    Instances data = DataSource.read(args[0]);
    data.setClassIndex(data.numAttributes() - 1);
    Discretize d = new Discretize();
    d.setUseBetterEncoding(args.length > 1 && args[1].equals("better"));
    d.setInputFormat(data);
    Filter.useFilter(data, d);
    for (int j = 0; j < data.numAttributes() - 1; j++) {
      if (!data.attribute(j).isNumeric()) continue;
      double[] c = d.getCutPoints(j);
      StringBuilder sb = new StringBuilder(data.attribute(j).name()).append("\t");
      if (c != null) for (int i = 0; i < c.length; i++) sb.append(i > 0 ? "," : "").append(Double.toString(c[i]));
      System.out.println(sb);
    }
  }
}
